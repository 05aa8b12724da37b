/**
 * DTLS (RFC 6347, RFC 9147): datagrams of DTLS records (13-byte header, version 0xfeff or 0xfefd). When
 * the client's first flight carries a ClientHello, its fragments are joined across records and
 * datagrams and its server_name is the domain. Any other first record (sing-box accepts these too) is
 * reported as DTLS without a domain.
 */
import { normalizeDomain } from "./domain.ts";
import { ByteReader } from "./reader.ts";
import { HANDSHAKE_CLIENT_HELLO, parseClientHelloBody } from "./tls_client_hello.ts";
import { found, MAX_CLIENT_HELLO, MAX_PACKETS, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

const RECORD_HEADER = 13;
const HANDSHAKE_HEADER = 12;
const CONTENT_TYPES: ReadonlySet<number> = new Set([20, 21, 22, 23, 25]);
const CONTENT_HANDSHAKE = 22;

type Fragment = { offset: number; data: Uint8Array };

export function sniffDtls(packets: readonly Uint8Array[]): SniffOutcome {
  const first = packets[0];
  if (first === undefined) return NEED_MORE;
  if (first.length < RECORD_HEADER || !CONTENT_TYPES.has(first[0]) || first[1] !== 0xfe) return NONE;
  if (first[2] !== 0xff && first[2] !== 0xfd) return NONE;
  const firstLength = (first[11] << 8) | first[12];
  if (RECORD_HEADER + firstLength > first.length) return NONE;
  if (first[0] !== CONTENT_HANDSHAKE || first[RECORD_HEADER] !== HANDSHAKE_CLIENT_HELLO) return found("dtls");

  let total = -1;
  let messageSeq = -1;
  const fragments: Fragment[] = [];
  for (const packet of packets.slice(0, MAX_PACKETS)) {
    const r = new ByteReader(packet);
    while (r.remaining >= RECORD_HEADER) {
      const type = r.u8()!, major = r.u8()!, minor = r.u8()!;
      const epoch = r.u16()!;
      r.skip(6); // sequence number
      const length = r.u16()!;
      const body = r.bytes(length);
      if (!body || major !== 0xfe) break;
      if (type !== CONTENT_HANDSHAKE || epoch !== 0 || (minor !== 0xff && minor !== 0xfd)) continue;
      readHandshakes(body, fragments, (len, seq) => {
        if (total < 0) {
          total = len;
          messageSeq = seq;
        }
        return len === total && seq === messageSeq;
      });
      if (total > MAX_CLIENT_HELLO) return found("dtls");
    }
    const body = total >= 0 ? assemble(fragments, total) : undefined;
    if (body) {
      const hello = parseClientHelloBody(body, true);
      const name = hello?.serverName;
      return found("dtls", name === undefined ? undefined : normalizeDomain(name));
    }
  }
  return packets.length >= MAX_PACKETS ? found("dtls") : NEED_MORE;
}

/** Collects the ClientHello fragments of one record; `accept` pins the message length and sequence. */
function readHandshakes(
  body: Uint8Array,
  fragments: Fragment[],
  accept: (length: number, seq: number) => boolean,
): void {
  const r = new ByteReader(body);
  while (r.remaining >= HANDSHAKE_HEADER) {
    const msgType = r.u8()!, length = r.u24()!, seq = r.u16()!, offset = r.u24()!, fragLength = r.u24()!;
    const data = r.bytes(fragLength);
    if (!data) return;
    if (msgType !== HANDSHAKE_CLIENT_HELLO || !accept(length, seq)) continue;
    if (offset + fragLength > length || fragments.length >= 256) continue;
    fragments.push({ offset, data });
  }
}

/** The message body when the fragments cover [0, total), else undefined. */
function assemble(fragments: readonly Fragment[], total: number): Uint8Array | undefined {
  const sorted = [...fragments].sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const f of sorted) {
    if (f.offset > end) break;
    end = Math.max(end, f.offset + f.data.length);
  }
  if (end < total) return undefined;
  const out = new Uint8Array(total);
  for (const f of sorted) out.set(f.data, f.offset);
  return out;
}
