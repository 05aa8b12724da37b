/**
 * DNS queries (RFC 1035 section 4.1) over UDP, and over TCP with the two-byte length prefix (section
 * 4.2.2). The domain is the first question's name. The whole message must parse: header of a query
 * (QR 0, opcode QUERY, NOTIFY or UPDATE, RCODE 0), every record, and nothing after the last one.
 */
import { normalizeDomain } from "./domain.ts";
import { ByteReader } from "./reader.ts";
import { found, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

const HEADER = 12;
/** Upper bound on each section's count, far above what a client query carries. */
const MAX_COUNT = 16;
const OPCODES: ReadonlySet<number> = new Set([0, 4, 5]);
const QCLASSES: ReadonlySet<number> = new Set([1, 3, 4, 254, 255]);

export function sniffDnsPacket(packets: readonly Uint8Array[]): SniffOutcome {
  const p = packets[0];
  if (p === undefined) return NEED_MORE;
  return sniffMessage(p);
}

export function sniffDnsStream(data: Uint8Array): SniffOutcome {
  if (data.length < 2) return NEED_MORE;
  const length = (data[0] << 8) | data[1];
  if (length < HEADER + 5) return NONE;
  if (data.length < 2 + length) {
    return headerPrefixOk(data.subarray(2)) ? NEED_MORE : NONE;
  }
  return sniffMessage(data.subarray(2, 2 + length));
}

/** Whether the header bytes present could begin a query. */
function headerPrefixOk(h: Uint8Array): boolean {
  if (h.length >= 3 && !flagsOk(h[2], h.length >= 4 ? h[3] : 0)) return false;
  for (let i = 4; i + 1 < Math.min(h.length, HEADER); i += 2) {
    const count = (h[i] << 8) | h[i + 1];
    if (count > MAX_COUNT || (i === 4 && count === 0)) return false;
  }
  return true;
}

function flagsOk(hi: number, lo: number): boolean {
  return (hi & 0x80) === 0 && OPCODES.has((hi >> 3) & 0x0f) && (lo & 0x0f) === 0;
}

function sniffMessage(m: Uint8Array): SniffOutcome {
  if (m.length < HEADER + 5 || !headerPrefixOk(m)) return NONE;
  const r = new ByteReader(m, 4);
  const qd = r.u16()!, an = r.u16()!, ns = r.u16()!, ar = r.u16()!;
  let domain: string | undefined;
  for (let i = 0; i < qd; i++) {
    const name = readName(m, r, false);
    if (name === undefined) return NONE;
    const qtype = r.u16(), qclass = r.u16();
    if (qtype === undefined || qclass === undefined || qtype === 0) return NONE;
    if (!QCLASSES.has(qclass & 0x7fff)) return NONE;
    if (i === 0) domain = name === "" ? undefined : normalizeDomain(name);
  }
  for (let i = 0; i < an + ns + ar; i++) {
    if (readName(m, r, true) === undefined) return NONE;
    if (!r.skip(8)) return NONE; // type, class, TTL
    const rdLength = r.u16();
    if (rdLength === undefined || !r.skip(rdLength)) return NONE;
  }
  if (r.remaining !== 0) return NONE;
  return found("dns", domain);
}

/**
 * A name as dotted text (empty for the root); undefined when malformed. A compression pointer ends the
 * name and is not followed (only its bounds are checked); it is refused where `pointers` is false.
 */
function readName(m: Uint8Array, r: ByteReader, pointers: boolean): string | undefined {
  const labels: string[] = [];
  let total = 0;
  for (;;) {
    const len = r.u8();
    if (len === undefined) return undefined;
    if (len === 0) break;
    if ((len & 0xc0) === 0xc0) {
      const lo = r.u8();
      if (!pointers || lo === undefined || (((len & 0x3f) << 8) | lo) >= m.length) return undefined;
      break;
    }
    if (len > 63) return undefined;
    const label = r.bytes(len);
    total += len + 1;
    if (!label || total > 255) return undefined;
    let s = "";
    for (const c of label) s += c > 0x20 && c < 0x7f && c !== 0x2e ? String.fromCharCode(c) : "\u0000";
    labels.push(s);
  }
  return labels.join(".");
}
