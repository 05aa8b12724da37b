/** HTTP/2 frame layout (RFC 9113 section 4 and 6): types, flags, the 9-byte header, SETTINGS. */
import { ProtocolError } from "../../common/errors.ts";

export const DATA = 0x0;
export const HEADERS = 0x1;
export const PRIORITY = 0x2;
export const RST_STREAM = 0x3;
export const SETTINGS = 0x4;
export const PUSH_PROMISE = 0x5;
export const PING = 0x6;
export const GOAWAY = 0x7;
export const WINDOW_UPDATE = 0x8;
export const CONTINUATION = 0x9;

export const FLAG_END_STREAM = 0x1;
export const FLAG_ACK = 0x1;
export const FLAG_END_HEADERS = 0x4;
export const FLAG_PADDED = 0x8;
export const FLAG_PRIORITY = 0x20;

export const SETTINGS_HEADER_TABLE_SIZE = 0x1;
export const SETTINGS_ENABLE_PUSH = 0x2;
export const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
export const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
export const SETTINGS_MAX_FRAME_SIZE = 0x5;
export const SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

export const ERR_NO_ERROR = 0x0;
export const ERR_PROTOCOL = 0x1;
export const ERR_FLOW_CONTROL = 0x3;
export const ERR_STREAM_CLOSED = 0x5;
export const ERR_FRAME_SIZE = 0x6;
export const ERR_REFUSED_STREAM = 0x7;
export const ERR_CANCEL = 0x8;

export const PREFACE = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
export const FRAME_HEADER_SIZE = 9;
export const DEFAULT_WINDOW = 65535;
export const MAX_WINDOW = 2 ** 31 - 1;

export interface FrameHeader {
  length: number;
  type: number;
  flags: number;
  stream: number;
}

export function parseFrameHeader(b: Uint8Array, at: number): FrameHeader {
  return {
    length: (b[at] << 16) | (b[at + 1] << 8) | b[at + 2],
    type: b[at + 3],
    flags: b[at + 4],
    stream: ((b[at + 5] & 0x7f) << 24 | (b[at + 6] << 16) | (b[at + 7] << 8) | b[at + 8]) >>> 0,
  };
}

export function writeFrameHeader(out: Uint8Array, at: number, h: FrameHeader): void {
  out[at] = h.length >>> 16;
  out[at + 1] = (h.length >>> 8) & 0xff;
  out[at + 2] = h.length & 0xff;
  out[at + 3] = h.type;
  out[at + 4] = h.flags;
  writeU32(out, at + 5, h.stream & 0x7fffffff);
}

export function writeU32(out: Uint8Array, at: number, v: number): void {
  out[at] = v >>> 24;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
}

export function readU32(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

/** A whole frame as one buffer (control frames; DATA is framed in place by the session). */
export function encodeFrame(type: number, flags: number, stream: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_SIZE + payload.length);
  writeFrameHeader(out, 0, { length: payload.length, type, flags, stream });
  out.set(payload, FRAME_HEADER_SIZE);
  return out;
}

export function encodeSettings(s: [number, number][]): Uint8Array {
  const p = new Uint8Array(6 * s.length);
  s.forEach(([id, v], i) => {
    p[i * 6] = id >>> 8;
    p[i * 6 + 1] = id & 0xff;
    writeU32(p, i * 6 + 2, v);
  });
  return encodeFrame(SETTINGS, 0, 0, p);
}

export function parseSettings(p: Uint8Array): [number, number][] {
  if (p.length % 6 !== 0) throw new ProtocolError("HTTP/2 SETTINGS frame length is not a multiple of 6");
  const out: [number, number][] = [];
  for (let i = 0; i < p.length; i += 6) out.push([(p[i] << 8) | p[i + 1], readU32(p, i + 2)]);
  return out;
}

/** Strips padding (and the priority block of HEADERS) from a frame payload. */
export function framePayload(type: number, flags: number, p: Uint8Array): Uint8Array {
  let start = 0, end = p.length;
  if (flags & FLAG_PADDED && (type === DATA || type === HEADERS)) {
    if (p.length < 1) throw new ProtocolError("HTTP/2 padded frame is empty");
    end -= p[0];
    start = 1;
  }
  if (type === HEADERS && flags & FLAG_PRIORITY) start += 5;
  if (end < start) throw new ProtocolError("HTTP/2 frame padding is longer than the frame");
  return p.subarray(start, end);
}
