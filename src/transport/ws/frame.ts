/**
 * WebSocket frame codec (RFC 6455 section 5), pure functions on Uint8Array. Headers are parsed
 * apart from payloads so the connection can stream a large payload straight into the reader's
 * buffer. Masking XORs four bytes at a time where the buffer alignment allows it.
 */
import { ProtocolError } from "../../common/errors.ts";

export const OP_CONTINUATION = 0x0;
export const OP_TEXT = 0x1;
export const OP_BINARY = 0x2;
export const OP_CLOSE = 0x8;
export const OP_PING = 0x9;
export const OP_PONG = 0xa;

/** Largest payload accepted in one frame; ws peers (gorilla, gobwas) send far smaller frames. */
export const MAX_FRAME_PAYLOAD = 2 ** 31;

export interface FrameHeader {
  fin: boolean;
  opcode: number;
  /** The masking key, when the frame is masked. */
  mask: Uint8Array | undefined;
  length: number;
  /** Bytes the header took. */
  size: number;
}

/**
 * Parses a frame header from the start of `b`; null when more bytes are needed. Throws a
 * ProtocolError on reserved bits, unknown opcodes, bad control frames or an oversized length.
 */
export function parseFrameHeader(b: Uint8Array): FrameHeader | null {
  if (b.length < 2) return null;
  const b0 = b[0], b1 = b[1];
  if (b0 & 0x70) throw new ProtocolError("WebSocket frame uses reserved bits (no extension was negotiated)");
  const opcode = b0 & 0x0f;
  const fin = (b0 & 0x80) !== 0;
  if (opcode > OP_BINARY && opcode < OP_CLOSE || opcode > OP_PONG) {
    throw new ProtocolError(`Unknown WebSocket opcode "${opcode}"`);
  }
  let length = b1 & 0x7f;
  let size = 2;
  if (length === 126) {
    if (b.length < 4) return null;
    length = (b[2] << 8) | b[3];
    size = 4;
  } else if (length === 127) {
    if (b.length < 10) return null;
    if (b[2] | b[3] | b[4] | b[5]) throw new ProtocolError("WebSocket frame length is too large");
    length = ((b[6] << 24) >>> 0) + ((b[7] << 16) | (b[8] << 8) | b[9]);
    size = 10;
  }
  if (length > MAX_FRAME_PAYLOAD) throw new ProtocolError(`WebSocket frame of ${length} bytes is too large`);
  if (opcode >= OP_CLOSE && (!fin || length > 125)) {
    throw new ProtocolError("WebSocket control frame is fragmented or longer than 125 bytes");
  }
  let mask: Uint8Array | undefined;
  if (b1 & 0x80) {
    if (b.length < size + 4) return null;
    mask = b.slice(size, size + 4);
    size += 4;
  }
  return { fin, opcode, mask, length, size };
}

/** Header length for a payload of `length` bytes. */
export function frameHeaderSize(length: number, masked: boolean): number {
  return (length < 126 ? 2 : length < 65536 ? 4 : 10) + (masked ? 4 : 0);
}

/** Writes a FIN frame header into `out` at `at`; returns the bytes written. */
export function writeFrameHeader(
  out: Uint8Array,
  at: number,
  opcode: number,
  length: number,
  mask: Uint8Array | undefined,
): number {
  let i = at;
  out[i++] = 0x80 | opcode;
  const m = mask ? 0x80 : 0;
  if (length < 126) {
    out[i++] = m | length;
  } else if (length < 65536) {
    out[i++] = m | 126;
    out[i++] = length >>> 8;
    out[i++] = length & 0xff;
  } else {
    out[i++] = m | 127;
    const hi = Math.floor(length / 2 ** 32);
    for (const v of [hi, length >>> 0]) {
      out[i++] = v >>> 24;
      out[i++] = (v >>> 16) & 0xff;
      out[i++] = (v >>> 8) & 0xff;
      out[i++] = v & 0xff;
    }
  }
  if (mask) {
    out.set(mask, i);
    i += 4;
  }
  return i - at;
}

/** XORs `data` in place with `mask` starting at mask byte `phase`; returns the next phase. */
export function applyMask(data: Uint8Array, mask: Uint8Array, phase: number): number {
  let i = 0;
  const n = data.length;
  let p = phase & 3;
  while (i < n && ((data.byteOffset + i) & 3) !== 0) data[i++] ^= mask[p++ & 3];
  p &= 3;
  const words = (n - i) >>> 2;
  if (words > 0) {
    // The four mask bytes rotated to this phase, read in platform order like the data words.
    const rot = new Uint8Array([mask[p], mask[(p + 1) & 3], mask[(p + 2) & 3], mask[(p + 3) & 3]]);
    const m32 = new Uint32Array(rot.buffer)[0];
    const w = new Uint32Array(data.buffer, data.byteOffset + i, words);
    for (let k = 0; k < words; k++) w[k] ^= m32;
    i += words * 4;
  }
  while (i < n) data[i++] ^= mask[p++ & 3];
  return p & 3;
}

/** Encodes one complete FIN frame (tests and control frames). */
export function encodeFrame(opcode: number, payload: Uint8Array, mask?: Uint8Array): Uint8Array {
  const h = frameHeaderSize(payload.length, !!mask);
  const out = new Uint8Array(h + payload.length);
  writeFrameHeader(out, 0, opcode, payload.length, mask);
  out.set(payload, h);
  if (mask) applyMask(out.subarray(h), mask, 0);
  return out;
}
