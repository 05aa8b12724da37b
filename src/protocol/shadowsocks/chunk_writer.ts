/**
 * The writing half of a shadowsocks AEAD stream: payload cut into chunks of the method's
 * largest size, each sealed as length + payload, many chunks batched into one socket write.
 * The output buffer is reused across writes: no allocation per chunk.
 */
import type { Aead } from "../../crypto/mod.ts";
import { incrementNonce } from "./wire.ts";

const TAG = 16;
/** Plaintext sealed per socket write at most (bounds the output buffer). */
const MAX_BATCH = 256 * 1024;

export class ChunkWriter {
  private readonly nonce = new Uint8Array(12);
  private readonly lengthIn = new Uint8Array(2);
  private out = new Uint8Array(0);

  constructor(readonly aead: Aead, readonly maxPayload: number) {}

  /** Bytes `seal` needs for `n` payload bytes. */
  sealedSize(n: number): number {
    return n + Math.ceil(n / this.maxPayload) * (2 + 2 * TAG);
  }

  /** An output buffer of at least `n` bytes, reused between calls. */
  buffer(n: number): Uint8Array {
    if (this.out.length < n) {
      this.out = new Uint8Array(Math.max(n, Math.min(this.out.length * 2, MAX_BATCH + 8192)));
    }
    return this.out;
  }

  /** Seals one block (SIP022 headers) at `out[off]`; returns the offset after it. */
  sealBlock(plain: Uint8Array, out: Uint8Array, off: number): number {
    const n = this.aead.seal(this.nonce, plain, out.subarray(off));
    incrementNonce(this.nonce);
    return off + n;
  }

  /** Seals `p` as chunks at `out[off]`; returns the offset after them. */
  sealChunks(p: Uint8Array, out: Uint8Array, off: number): number {
    for (let i = 0; i < p.length; i += this.maxPayload) {
      const n = Math.min(this.maxPayload, p.length - i);
      this.lengthIn[0] = n >> 8;
      this.lengthIn[1] = n & 0xff;
      off = this.sealBlock(this.lengthIn, out, off);
      off = this.sealBlock(p.subarray(i, i + n), out, off);
    }
    return off;
  }

  /** Slices of `p` small enough for one batch each. */
  static *batches(p: Uint8Array): Generator<Uint8Array> {
    for (let i = 0; i < p.length; i += MAX_BATCH) yield p.subarray(i, Math.min(p.length, i + MAX_BATCH));
  }
}
