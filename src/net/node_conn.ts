/**
 * Adapts a node:net Socket to the Conn shape. Used only where Deno.connect cannot do the job
 * (a local bind address, keep-alive timing): Deno.connect takes no local address.
 */
import type { Socket } from "node:net";
import type { Conn } from "../adapter/mod.ts";

export class NodeSocketConn implements Conn {
  private chunks: Uint8Array[] = [];
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly socket: Socket) {
    socket.on("data", (d: Uint8Array) => {
      this.chunks.push(d);
      // Backpressure: stop the socket until the reader catches up.
      if (this.chunks.length > 16) socket.pause();
      this.notify();
    });
    socket.on("end", () => {
      this.ended = true;
      this.notify();
    });
    socket.on("error", (e: Error) => {
      this.error = e;
      this.notify();
    });
    socket.on("close", () => {
      this.ended = true;
      this.notify();
    });
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  async read(p: Uint8Array): Promise<number | null> {
    while (this.chunks.length === 0) {
      if (this.error) throw this.error;
      if (this.ended) return null;
      await new Promise<void>((r) => (this.wake = r));
    }
    const head = this.chunks[0];
    const n = Math.min(head.length, p.length);
    p.set(head.subarray(0, n));
    if (n === head.length) this.chunks.shift();
    else this.chunks[0] = head.subarray(n);
    if (this.chunks.length <= 4) this.socket.resume();
    return n;
  }

  write(p: Uint8Array): Promise<number> {
    if (this.error) return Promise.reject(this.error);
    const copy = p.slice();
    return new Promise((resolve, reject) => {
      this.socket.write(copy, (err) => (err ? reject(err) : resolve(copy.length)));
    });
  }

  closeWrite(): Promise<void> {
    return new Promise((r) => this.socket.end(r));
  }

  close(): void {
    this.socket.destroy();
  }
}
