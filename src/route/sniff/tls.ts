/**
 * TLS: the ClientHello's server_name is the domain. The ClientHello may be split over several handshake
 * records and over several reads; the records are joined until the whole handshake message is there.
 */
import { normalizeDomain } from "./domain.ts";
import { ByteReader, concatBytes } from "./reader.ts";
import { HANDSHAKE_CLIENT_HELLO, parseClientHelloBody } from "./tls_client_hello.ts";
import { found, MAX_CLIENT_HELLO, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

const CONTENT_HANDSHAKE = 22;
/** TLSPlaintext.length may not exceed 2^14 (RFC 8446 section 5.1). */
const MAX_RECORD = 16384;

export function sniffTls(data: Uint8Array): SniffOutcome {
  const r = new ByteReader(data);
  const fragments: Uint8Array[] = [];
  let have = 0;
  let need = -1; // whole handshake message length, once its header is known
  while (need < 0 || have < need) {
    if (r.remaining === 0) return NEED_MORE;
    const type = r.u8()!;
    if (type !== CONTENT_HANDSHAKE) return NONE;
    const major = r.u8();
    if (major === undefined) return NEED_MORE;
    if (major !== 3) return NONE;
    const minor = r.u8();
    if (minor === undefined) return NEED_MORE;
    if (minor > 4) return NONE;
    const len = r.u16();
    if (len === undefined) return NEED_MORE;
    if (len === 0 || len > MAX_RECORD) return NONE;
    const body = r.bytes(Math.min(len, r.remaining))!;
    if (have === 0 && body.length > 0 && body[0] !== HANDSHAKE_CLIENT_HELLO) return NONE;
    fragments.push(body);
    have += body.length;
    if (need < 0 && have >= 5) {
      const head = fragments.length === 1 ? body : concatBytes(fragments);
      // A ClientHello of bounded size whose legacy_version is 3.x.
      if (head[0] !== HANDSHAKE_CLIENT_HELLO || head[4] !== 3) return NONE;
      need = 4 + ((head[1] << 16) | (head[2] << 8) | head[3]);
      if (need > MAX_CLIENT_HELLO) return NONE;
    }
    if (body.length < len && (need < 0 || have < need)) return NEED_MORE;
  }
  const message = concatBytes(fragments).subarray(0, need);
  const hello = parseClientHelloBody(message.subarray(4));
  if (!hello) return NONE;
  const domain = hello.serverName === undefined ? undefined : normalizeDomain(hello.serverName);
  return found("tls", domain);
}
