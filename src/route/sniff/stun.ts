/**
 * STUN (RFC 5389 section 6): a 20-byte header whose first two bits are zero, the magic cookie
 * 0x2112A442, and a message length that is a multiple of 4 and fits the datagram.
 */
import { found, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

export function sniffStun(packets: readonly Uint8Array[]): SniffOutcome {
  const p = packets[0];
  if (p === undefined) return NEED_MORE;
  if (p.length < 20 || (p[0] & 0xc0) !== 0) return NONE;
  if (p[4] !== 0x21 || p[5] !== 0x12 || p[6] !== 0xa4 || p[7] !== 0x42) return NONE;
  const length = (p[2] << 8) | p[3];
  if (length % 4 !== 0 || 20 + length > p.length) return NONE;
  return found("stun");
}
