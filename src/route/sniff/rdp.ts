/**
 * RDP: the client's X.224 Connection Request in a TPKT ([MS-RDPBCGR] 2.2.1.1): TPKT version 3, X.224
 * CR TPDU (0xE0), then a `Cookie: mstshash=` line or routing token and/or an RDP Negotiation Request
 * (type 1, length 8). sing-box accepts only the 19-byte form without a cookie; mstsc, xfreerdp and
 * rdesktop all send a cookie, so this sniffer reads the variable part instead.
 */
import { indexOfByte, startsWith } from "./reader.ts";
import { found, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

/** Longest Connection Request accepted (the cookie is one short line). */
const MAX_LENGTH = 1024;
const HEADER = 11; // TPKT (4) + X.224 CR fixed part (7)

export function sniffRdp(data: Uint8Array): SniffOutcome {
  if (data.length >= 1 && data[0] !== 0x03) return NONE;
  if (data.length >= 2 && data[1] !== 0x00) return NONE;
  if (data.length < 4) return NEED_MORE;
  const length = (data[2] << 8) | data[3];
  if (length < HEADER || length > MAX_LENGTH) return NONE;
  if (data.length >= 5 && data[4] !== length - 5) return NONE; // X.224 length indicator
  if (data.length >= 6 && data[5] !== 0xe0) return NONE; // CR TPDU, credit 0
  if (data.length >= 8 && (data[6] !== 0 || data[7] !== 0)) return NONE; // DST-REF
  if (data.length >= 11 && data[10] !== 0) return NONE; // class 0
  if (data.length < length) return NEED_MORE;
  let pos = HEADER;
  if (startsWith(data, "Cookie: ", pos) || startsWith(data, "Cookie:", pos)) {
    const lf = indexOfByte(data, 0x0a, pos, length);
    if (lf < 0 || data[lf - 1] !== 0x0d) return NONE;
    pos = lf + 1;
  }
  const hadCookie = pos > HEADER;
  if (pos === length) return hadCookie ? found("rdp") : NONE;
  // RDP_NEG_REQ: type 1, flags, length 8 (little-endian), requestedProtocols (4 bytes).
  if (length - pos !== 8 && length - pos !== 8 + 36) return NONE; // optional RDP_NEG_CORRELATION_INFO
  if (data[pos] !== 0x01 || data[pos + 2] !== 0x08 || data[pos + 3] !== 0x00) return NONE;
  return found("rdp");
}
