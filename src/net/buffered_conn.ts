/**
 * A Conn with a read-ahead buffer, for handshakes and sniffing: parse from buffered bytes,
 * then hand the same object on; later reads return what was buffered before touching the socket.
 */
import type { Conn } from "../adapter/mod.ts";
import { ProtocolError } from "../common/errors.ts";

export class BufferedConn implements Conn {
  private buf: Uint8Array;
  private start = 0;
  private end = 0;
  private eof = false;

  constructor(readonly inner: Conn, initial?: Uint8Array, capacity = 16 * 1024) {
    this.buf = new Uint8Array(Math.max(capacity, initial?.length ?? 0));
    if (initial) {
      this.buf.set(initial);
      this.end = initial.length;
    }
  }

  /** Bytes read ahead and not yet consumed. */
  buffered(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  get atEof(): boolean {
    return this.eof;
  }

  private pending?: Promise<boolean>;

  /**
   * Reads more from the socket into the buffer; false at end of stream. One read at a time: a
   * fill abandoned by a timeout (sniffing) stays pending and later calls and reads wait for it.
   */
  fill(max = 64 * 1024): Promise<boolean> {
    if (!this.pending) this.pending = this.fillOnce(max).finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Like fill() but gives up waiting after `ms` (the read itself goes on); true when bytes came. */
  fillWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      this.fill(),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms))),
    ]).finally(() => clearTimeout(timer));
  }

  private async fillOnce(max: number): Promise<boolean> {
    if (this.eof) return false;
    if (this.start > 0 && this.start === this.end) this.start = this.end = 0;
    if (this.end === this.buf.length) {
      if (this.end - this.start >= max) throw new ProtocolError(`Handshake larger than ${max} bytes`);
      const grown = new Uint8Array(Math.min(max, this.buf.length * 2));
      grown.set(this.buffered());
      this.end -= this.start;
      this.start = 0;
      this.buf = grown;
    }
    const n = await this.inner.read(this.buf.subarray(this.end));
    if (n === null) {
      this.eof = true;
      return false;
    }
    this.end += n;
    return true;
  }

  /** Ensures at least `n` bytes are buffered; throws at a premature end. */
  async need(n: number, max = 64 * 1024): Promise<Uint8Array> {
    while (this.end - this.start < n) {
      if (!(await this.fill(max))) throw new ProtocolError("Connection closed during handshake");
    }
    return this.buf.subarray(this.start, this.end);
  }

  /** Reads exactly `n` bytes (a copy). */
  async readExact(n: number): Promise<Uint8Array> {
    const b = await this.need(n);
    const out = b.slice(0, n);
    this.start += n;
    return out;
  }

  consume(n: number): void {
    this.start = Math.min(this.start + n, this.end);
  }

  async read(p: Uint8Array): Promise<number | null> {
    if (this.pending && this.start === this.end) await this.pending.catch(() => {});
    if (this.start < this.end) {
      const n = Math.min(p.length, this.end - this.start);
      p.set(this.buf.subarray(this.start, this.start + n));
      this.start += n;
      return n;
    }
    if (this.eof) return null;
    return await this.inner.read(p);
  }

  write(p: Uint8Array): Promise<number> {
    return this.inner.write(p);
  }

  closeWrite(): Promise<void> {
    return this.inner.closeWrite();
  }

  close(): void {
    try {
      this.inner.close();
    } catch { /* already closed: close() is safe to call twice */ }
  }
}
