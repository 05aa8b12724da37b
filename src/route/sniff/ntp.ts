/**
 * NTP (RFC 5905): a client request (mode 3) of version 3 or 4, at least the 48-byte header, with root
 * delay and root dispersion of at most 16 seconds, as sing-box checks.
 */
import { found, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

const SIXTEEN_SECONDS = 16 * 65536; // NTP short format: 16.16 fixed point

export function sniffNtp(packets: readonly Uint8Array[]): SniffOutcome {
  const p = packets[0];
  if (p === undefined) return NEED_MORE;
  if (p.length < 48) return NONE;
  const version = (p[0] >> 3) & 0x07;
  const mode = p[0] & 0x07;
  if ((version !== 3 && version !== 4) || mode !== 3) return NONE;
  const rootDelay = ((p[4] << 24) >>> 0) + ((p[5] << 16) | (p[6] << 8) | p[7]);
  const rootDispersion = ((p[8] << 24) >>> 0) + ((p[9] << 16) | (p[10] << 8) | p[11]);
  if (rootDelay > SIXTEEN_SECONDS || rootDispersion > SIXTEEN_SECONDS) return NONE;
  return found("ntp");
}
