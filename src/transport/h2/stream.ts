/**
 * One HTTP/2 stream as a Conn. Received DATA is queued (bounded by the window we advertise) and
 * handed out by read(); consumed bytes are returned to the peer with WINDOW_UPDATE in batches.
 * write() sends DATA within the peer's stream and connection windows. closeWrite() ends our side
 * (END_STREAM, or trailers when the owner set them); close() resets a stream not ended cleanly.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { ERR_CANCEL } from "./frame.ts";
import type { HeaderList } from "./hpack.ts";

/** What a stream needs from its connection. */
export interface StreamSession {
  sendData(s: H2Stream, p: Uint8Array): Promise<void>;
  sendEnd(s: H2Stream, trailers?: HeaderList): Promise<void>;
  sendReset(s: H2Stream, code: number): void;
  consumed(s: H2Stream, n: number): void;
}

export class H2Stream implements Conn {
  /** Peer's window for our DATA on this stream. */
  sendWindow: number;
  /** Bytes the peer may still send before we update the window. */
  recvWindow: number;
  /** Consumed bytes not yet returned with WINDOW_UPDATE. */
  unacked = 0;
  localEnded = false;
  remoteEnded = false;
  private chunks: Uint8Array[] = [];
  private head = 0;
  private error: Error | undefined;
  private wakeReader: (() => void) | undefined;
  wakeWriter: (() => void) | undefined;
  /** Resolves with the peer's first headers (the response, for a client stream). */
  readonly headers: Promise<HeaderList>;
  private gotHeaders!: (h: HeaderList) => void;
  private failHeaders!: (e: Error) => void;
  trailers: HeaderList | undefined;
  /** Sent instead of an empty END_STREAM DATA frame by closeWrite (gRPC status on the server). */
  endTrailers: HeaderList | undefined;
  /** Checked before the first read (a client's response status). */
  beforeRead: ((h: HeaderList) => void) | undefined;
  private checked = false;

  constructor(
    readonly id: number,
    private readonly session: StreamSession,
    sendWindow: number,
    recvWindow: number,
  ) {
    this.sendWindow = sendWindow;
    this.recvWindow = recvWindow;
    this.headers = new Promise((ok, fail) => {
      this.gotHeaders = ok;
      this.failHeaders = fail;
    });
    this.headers.catch(() => {});
  }

  // --- called by the session ---
  onHeaders(h: HeaderList): void {
    this.gotHeaders(h);
  }

  onData(p: Uint8Array): void {
    this.chunks.push(p);
    this.wake();
  }

  onEnd(): void {
    this.remoteEnded = true;
    this.failHeaders(new ProtocolError("HTTP/2 stream ended without headers"));
    this.wake();
  }

  onError(e: Error): void {
    if (!this.error) this.error = e;
    this.failHeaders(e);
    this.wake();
    const w = this.wakeWriter;
    this.wakeWriter = undefined;
    w?.();
  }

  get failed(): Error | undefined {
    return this.error;
  }

  private wake(): void {
    const w = this.wakeReader;
    this.wakeReader = undefined;
    w?.();
  }

  // --- Conn ---
  async read(p: Uint8Array): Promise<number | null> {
    if (!this.checked && this.beforeRead) {
      this.beforeRead(await this.headers);
      this.checked = true;
    }
    while (this.head === this.chunks.length) {
      if (this.error) throw this.error;
      if (this.remoteEnded) return null;
      await new Promise<void>((r) => (this.wakeReader = r));
    }
    const c = this.chunks[this.head];
    const n = Math.min(c.length, p.length);
    p.set(n === c.length ? c : c.subarray(0, n));
    if (n === c.length) {
      this.chunks[this.head++] = undefined as unknown as Uint8Array;
      if (this.head > 64 && this.head * 2 > this.chunks.length) {
        this.chunks = this.chunks.slice(this.head);
        this.head = 0;
      }
    } else {
      this.chunks[this.head] = c.subarray(n);
    }
    this.session.consumed(this, n);
    return n;
  }

  async write(p: Uint8Array): Promise<number> {
    if (this.error) throw this.error;
    if (this.localEnded) throw new ProtocolError("HTTP/2 stream is closed for writing");
    await this.session.sendData(this, p);
    return p.length;
  }

  async closeWrite(): Promise<void> {
    if (this.localEnded || this.error) return;
    this.localEnded = true;
    await this.session.sendEnd(this, this.endTrailers);
  }

  close(): void {
    if (this.localEnded && this.remoteEnded) return;
    if (!this.error) {
      this.session.sendReset(this, ERR_CANCEL);
      this.onError(new ProtocolError("HTTP/2 stream is closed"));
    }
  }
}
