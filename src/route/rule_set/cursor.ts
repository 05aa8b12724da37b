/** A bounds-checked reader over bytes for the .srs codec: every overrun is a ProtocolError. */
import { ProtocolError } from "../../common/errors.ts";

export class Cursor {
  pos = 0;
  constructor(readonly bytes: Uint8Array, readonly what = "rule-set") {}

  private need(n: number): void {
    if (n < 0 || this.pos + n > this.bytes.length) {
      throw new ProtocolError(`truncated ${this.what}: ${n} more bytes wanted at offset ${this.pos}`);
    }
  }

  byte(): number {
    this.need(1);
    return this.bytes[this.pos++];
  }

  /** Go's binary.ReadUvarint, limited to 2^53 (a larger count cannot fit in memory anyway). */
  uvarint(): number {
    let value = 0, scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
    throw new ProtocolError(`${this.what}: varint too long at offset ${this.pos}`);
  }

  /** A count of items, each at least `minSize` bytes, checked against what is left. */
  count(minSize = 1): number {
    const n = this.uvarint();
    if (n * minSize > this.bytes.length - this.pos) {
      throw new ProtocolError(
        `${this.what}: count ${n} exceeds the remaining ${this.bytes.length - this.pos} bytes`,
      );
    }
    return n;
  }

  take(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  uint16(): number {
    this.need(2);
    const v = (this.bytes[this.pos] << 8) | this.bytes[this.pos + 1];
    this.pos += 2;
    return v;
  }

  uint32(): number {
    this.need(4);
    const b = this.bytes, p = this.pos;
    this.pos += 4;
    return ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
  }
}

/** A growable byte buffer for writing. */
export class Writer {
  #buf = new Uint8Array(256);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.length));
    this.#buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.#buf[this.length++] = b;
  }

  uvarint(v: number): void {
    while (v >= 0x80) {
      this.byte((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.byte(v);
  }

  bytes(b: Uint8Array | readonly number[]): void {
    this.room(b.length);
    this.#buf.set(b, this.length);
    this.length += b.length;
  }

  uint16(v: number): void {
    this.byte(v >>> 8);
    this.byte(v & 255);
  }

  uint32(v: number): void {
    this.byte(v >>> 24);
    this.byte((v >>> 16) & 255);
    this.byte((v >>> 8) & 255);
    this.byte(v & 255);
  }

  done(): Uint8Array {
    return this.#buf.slice(0, this.length);
  }
}
