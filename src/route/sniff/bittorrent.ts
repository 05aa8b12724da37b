/**
 * BitTorrent: the peer wire handshake over TCP (BEP 3), and over UDP a uTP packet (BEP 29), a UDP tracker
 * connect request (BEP 15) or a DHT message (BEP 5, a bencoded dictionary with `y` and `t`).
 */
import { agreesWith, startsWith } from "./reader.ts";
import { found, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

const HANDSHAKE = "\x13BitTorrent protocol";

export function sniffBitTorrentStream(data: Uint8Array): SniffOutcome {
  if (startsWith(data, HANDSHAKE)) return found("bittorrent");
  return agreesWith(data, HANDSHAKE) ? NEED_MORE : NONE;
}

export function sniffBitTorrentPacket(packets: readonly Uint8Array[]): SniffOutcome {
  const p = packets[0];
  if (p === undefined) return NEED_MORE;
  return isUdpTrackerConnect(p) || isDht(p) || isUtp(p) ? found("bittorrent") : NONE;
}

/** uTP header: version 1, type 0-4 (ST_DATA..ST_SYN), then a valid extension chain. */
function isUtp(p: Uint8Array): boolean {
  if (p.length < 20) return false;
  if ((p[0] & 0x0f) !== 1 || (p[0] >> 4) > 4) return false;
  let ext = p[1];
  let pos = 20;
  while (ext !== 0) {
    if (ext > 4 || pos + 2 > p.length) return false;
    ext = p[pos];
    const len = p[pos + 1];
    pos += 2 + len;
    if (pos > p.length) return false;
  }
  return true;
}

/** BEP 15 connect: protocol id 0x41727101980, action 0, transaction id. */
function isUdpTrackerConnect(p: Uint8Array): boolean {
  const magic = [0x00, 0x00, 0x04, 0x17, 0x27, 0x10, 0x19, 0x80, 0, 0, 0, 0];
  return p.length >= 16 && magic.every((b, i) => p[i] === b);
}

const MAX_DEPTH = 16;
const MAX_ITEMS = 1024;

/** A whole datagram that is one bencoded dictionary with keys `t` (a string) and `y` (`q`, `r` or `e`). */
function isDht(p: Uint8Array): boolean {
  if (p[0] !== 0x64 /* d */) return false;
  const state = { pos: 0, items: 0, t: false, y: false };
  return skipValue(p, state, 0) && state.pos === p.length && state.t && state.y;
}

type BState = { pos: number; items: number; t: boolean; y: boolean };

function skipValue(p: Uint8Array, s: BState, depth: number): boolean {
  if (depth > MAX_DEPTH || ++s.items > MAX_ITEMS || s.pos >= p.length) return false;
  const c = p[s.pos];
  if (c === 0x69 /* i */) {
    let i = s.pos + 1;
    if (p[i] === 0x2d) i++;
    const start = i;
    while (i < p.length && p[i] >= 0x30 && p[i] <= 0x39) i++;
    if (i === start || i - start > 20 || p[i] !== 0x65 /* e */) return false;
    s.pos = i + 1;
    return true;
  }
  if (c >= 0x30 && c <= 0x39) return readString(p, s) !== undefined;
  if (c === 0x6c /* l */ || c === 0x64 /* d */) {
    s.pos++;
    while (s.pos < p.length && p[s.pos] !== 0x65) {
      if (c === 0x64) {
        const key = readString(p, s);
        if (key === undefined) return false;
        const valueStart = s.pos;
        if (!skipValue(p, s, depth + 1)) return false;
        if (depth === 0 && key.length === 1) {
          if (key[0] === 0x74 /* t */ && p[valueStart] >= 0x30 && p[valueStart] <= 0x39) s.t = true;
          if (key[0] === 0x79 /* y */ && s.pos - valueStart === 3 && p[valueStart] === 0x31) {
            const y = p[valueStart + 2];
            s.y = y === 0x71 || y === 0x72 || y === 0x65; // q, r, e
          }
        }
      } else if (!skipValue(p, s, depth + 1)) {
        return false;
      }
    }
    if (s.pos >= p.length) return false;
    s.pos++;
    return true;
  }
  return false;
}

function readString(p: Uint8Array, s: BState): Uint8Array | undefined {
  let i = s.pos;
  let n = 0;
  while (i < p.length && p[i] >= 0x30 && p[i] <= 0x39 && i - s.pos < 6) n = n * 10 + (p[i++] - 0x30);
  if (i === s.pos || p[i] !== 0x3a /* : */ || i + 1 + n > p.length) return undefined;
  s.pos = i + 1 + n;
  return p.subarray(i + 1, i + 1 + n);
}
