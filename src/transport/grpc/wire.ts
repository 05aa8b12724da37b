/**
 * The gun wire format (Xray/sing-box gRPC transport): each message is the gRPC 5-byte prefix
 * (compressed flag 0, big-endian length) around a protobuf `Hunk { bytes data = 1; }`. Decoding
 * also takes Xray's `MultiHunk` (field 1 repeated) and skips unknown fields, as protobuf does.
 */
import { ProtocolError } from "../../common/errors.ts";

/** Largest gRPC message accepted (gRPC's own default limit is 4 MiB). */
export const MAX_MESSAGE = 4 * 1024 * 1024;

export function varintSize(n: number): number {
  let s = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    s++;
  }
  return s;
}

/** Size of the whole message (prefix + protobuf) for `n` payload bytes. */
export function gunMessageSize(n: number): number {
  return 5 + 1 + varintSize(n) + n;
}

/** Writes the prefix, tag and varint for `n` payload bytes at `out[at]`; returns the header length. */
export function writeGunHeader(out: Uint8Array, at: number, n: number): number {
  const proto = 1 + varintSize(n) + n;
  out[at] = 0;
  out[at + 1] = proto >>> 24;
  out[at + 2] = (proto >>> 16) & 0xff;
  out[at + 3] = (proto >>> 8) & 0xff;
  out[at + 4] = proto & 0xff;
  out[at + 5] = 0x0a; // field 1, wire type 2 (length-delimited)
  let i = at + 6;
  let v = n;
  while (v >= 0x80) {
    out[i++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[i++] = v;
  return i - at;
}

export function encodeGunMessage(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(gunMessageSize(payload.length));
  out.set(payload, writeGunHeader(out, 0, payload.length));
  return out;
}

/** Reads a varint at `b[at]`; returns [value, next offset]. */
function readVarint(b: Uint8Array, at: number): [number, number] {
  let v = 0, mul = 1;
  for (let i = at; i < b.length && i < at + 10; i++) {
    v += (b[i] & 0x7f) * mul;
    if (!(b[i] & 0x80)) {
      if (v > Number.MAX_SAFE_INTEGER) break;
      return [v, i + 1];
    }
    mul *= 128;
  }
  throw new ProtocolError("gRPC message has a malformed varint");
}

/** Parses the 5-byte prefix; returns the protobuf length. */
export function parseGrpcPrefix(b: Uint8Array, at: number): number {
  if (b[at] !== 0) throw new ProtocolError(`gRPC message uses compression flag "${b[at]}"`);
  const n = ((b[at + 1] << 24) | (b[at + 2] << 16) | (b[at + 3] << 8) | b[at + 4]) >>> 0;
  if (n > MAX_MESSAGE) throw new ProtocolError(`gRPC message of ${n} bytes is too large`);
  return n;
}

/** The data fields (field 1, bytes) of one Hunk/MultiHunk, as views into `msg`. */
export function parseHunk(msg: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let i = 0;
  while (i < msg.length) {
    const [key, a] = readVarint(msg, i);
    const field = Math.floor(key / 8), type = key & 7;
    i = a;
    if (type === 2) {
      const [len, b] = readVarint(msg, i);
      if (b + len > msg.length) throw new ProtocolError("gRPC message field is longer than the message");
      if (field === 1) out.push(msg.subarray(b, b + len));
      i = b + len;
    } else if (type === 0) {
      i = readVarint(msg, i)[1];
    } else if (type === 1 || type === 5) {
      i += type === 1 ? 8 : 4;
      if (i > msg.length) throw new ProtocolError("gRPC message field is longer than the message");
    } else {
      throw new ProtocolError(`gRPC message has unsupported wire type "${type}"`);
    }
    if (field === 0) throw new ProtocolError("gRPC message has field number 0");
  }
  return out;
}
