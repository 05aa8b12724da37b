/**
 * The reading half of a shadowsocks AEAD stream (SIP004 and SIP022 share it): sealed 2-byte
 * lengths followed by sealed payloads, nonces counting up little-endian from zero.
 * One buffer per connection, reads from the socket as large as it allows, and full chunks are
 * opened straight into the caller's buffer: no allocation per chunk.
 */
import type { Conn } from "../../adapter/mod.ts";
import type { Aead } from "../../crypto/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { incrementNonce } from "./wire.ts";

const TAG = 16;
const LENGTH_CHUNK = 2 + TAG;
/** Largest socket read buffer: grows to it while reads fill the buffer (bulk transfers). */
const MAX_BUFFER = 512 * 1024;

export class ChunkReader {
  private buf: Uint8Array;
  private start = 0;
  private end = 0;
  private eof = false;
  private readonly nonce = new Uint8Array(12);
  private readonly lengthOut = new Uint8Array(2);
  /** Payload length of the next chunk once its length chunk is opened, else -1. */
  private nextLen = -1;
  /** Plaintext opened in place in `buf` and not yet handed out. */
  private plainStart = 0;
  private plainEnd = 0;
  /** The session's AEAD; set once the handshake knows the key. */
  aead?: Aead;

  constructor(
    private readonly inner: Conn,
    private readonly maxPayload: number,
    /** SIP004 refuses empty chunks (as ss-libev); SIP022 allows them. */
    private readonly allowEmpty: boolean,
    initial = 32 * 1024,
  ) {
    this.buf = new Uint8Array(Math.max(initial, 2 * (maxPayload + LENGTH_CHUNK + TAG)));
  }

  /** Reads more from the socket so that `n` bytes are buffered; false at end of stream first. */
  private async ensure(n: number): Promise<boolean> {
    while (this.end - this.start < n) {
      if (this.eof) return false;
      const have = this.end - this.start;
      if (this.start > 0) {
        this.buf.copyWithin(0, this.start, this.end);
        this.start = 0;
        this.end = have;
      }
      if (this.buf.length < n) {
        const grown = new Uint8Array(Math.min(MAX_BUFFER, Math.max(n, this.buf.length * 2)));
        grown.set(this.buf.subarray(0, have));
        this.buf = grown;
      }
      const free = this.buf.length - this.end;
      const got = await this.inner.read(this.buf.subarray(this.end));
      if (got === null) {
        this.eof = true;
        return false;
      }
      this.end += got;
      if (got === free && this.buf.length < MAX_BUFFER) {
        const grown = new Uint8Array(Math.min(MAX_BUFFER, this.buf.length * 4));
        grown.set(this.buf.subarray(this.start, this.end));
        this.end -= this.start;
        this.start = 0;
        this.buf = grown;
      }
    }
    return true;
  }

  private async need(n: number): Promise<void> {
    if (!(await this.ensure(n))) {
      throw new ProtocolError(
        this.end > this.start ? "Truncated frame" : "Connection closed during handshake",
      );
    }
  }

  /** False when the stream ends before any byte. */
  hasData(): Promise<boolean> {
    return this.ensure(1);
  }

  /** Buffered bytes, at least `n` of them (for trying keys without consuming). */
  async peek(n: number): Promise<Uint8Array> {
    await this.need(n);
    return this.buf.subarray(this.start, this.end);
  }

  /** Takes `n` raw bytes (salts, identity headers): a copy. */
  async readRaw(n: number): Promise<Uint8Array> {
    await this.need(n);
    const out = this.buf.slice(this.start, this.start + n);
    this.start += n;
    return out;
  }

  private openAt(len: number, out: Uint8Array): void {
    const ct = this.buf.subarray(this.start, this.start + len + TAG);
    if (!this.aead) throw new ProtocolError("Connection closed");
    if (this.aead.open(this.nonce, ct, out) !== len) throw new ProtocolError("Authentication failed");
    incrementNonce(this.nonce);
    this.start += len + TAG;
  }

  /** Opens one sealed block of `n` plaintext bytes (SIP022 headers): a fresh array. */
  async readSealed(n: number): Promise<Uint8Array> {
    await this.need(n + TAG);
    const out = new Uint8Array(n);
    this.openAt(n, out);
    return out;
  }

  /** Declares the next payload chunk's length (SIP022 response: it is in the fixed header). */
  setNextLength(n: number): void {
    this.nextLen = n;
  }

  private openLength(): void {
    this.openAt(2, this.lengthOut);
    const n = (this.lengthOut[0] << 8) | this.lengthOut[1];
    if (n > this.maxPayload) throw new ProtocolError(`Chunk length ${n} exceeds ${this.maxPayload}`);
    if (n === 0 && !this.allowEmpty) throw new ProtocolError("Empty chunk");
    this.nextLen = n;
  }

  /** One whole chunk's payload (handshakes): a fresh array. */
  async readChunk(): Promise<Uint8Array> {
    if (this.nextLen < 0) {
      await this.need(LENGTH_CHUNK);
      this.openLength();
    }
    const n = this.nextLen;
    await this.need(n + TAG);
    const out = new Uint8Array(n);
    this.openAt(n, out);
    this.nextLen = -1;
    return out;
  }

  /** Plaintext into `p`: as many whole chunks as are buffered and fit. Null at a clean end. */
  async read(p: Uint8Array): Promise<number | null> {
    if (this.plainEnd > this.plainStart) return this.takePlain(p);
    while (true) {
      let off = 0;
      while (off < p.length) {
        if (this.nextLen < 0) {
          if (this.end - this.start < LENGTH_CHUNK) break;
          this.openLength();
        }
        const n = this.nextLen;
        if (this.end - this.start < n + TAG) break;
        if (n > p.length - off) {
          if (off > 0) break;
          // The caller's buffer is smaller than the chunk: open in place and hand out in parts.
          this.plainStart = this.start;
          this.plainEnd = this.start + n;
          this.openAt(n, this.buf.subarray(this.start));
          this.nextLen = -1;
          return this.takePlain(p);
        }
        this.openAt(n, p.subarray(off));
        this.nextLen = -1;
        off += n;
      }
      if (off > 0) return off;
      const want = this.nextLen < 0 ? LENGTH_CHUNK : this.nextLen + TAG;
      if (!(await this.ensure(want))) {
        if (this.end > this.start || this.nextLen >= 0) throw new ProtocolError("Truncated frame");
        return null;
      }
    }
  }

  private takePlain(p: Uint8Array): number {
    const n = Math.min(p.length, this.plainEnd - this.plainStart);
    p.set(this.buf.subarray(this.plainStart, this.plainStart + n));
    this.plainStart += n;
    return n;
  }

  /** Drops buffered bytes and reads on until the peer closes or `ms` passes (probe resistance). */
  async drain(ms: number): Promise<void> {
    this.start = this.end = 0;
    const timer = setTimeout(() => this.inner.close(), ms);
    try {
      while ((await this.inner.read(this.buf)) !== null) { /* discard */ }
    } catch {
      /* closed by the timer or reset */
    } finally {
      clearTimeout(timer);
    }
  }
}
