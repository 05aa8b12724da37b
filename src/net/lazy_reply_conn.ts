/**
 * The client's stream after a CONNECT request, before the reply: the reply is written once the
 * router reports the dial's outcome, or on the first read (a client sends nothing before it).
 * Used by SOCKS and HTTP CONNECT alike through the `reply` callbacks.
 */
import type { Conn, HandshakeConn } from "../adapter/mod.ts";
import { writeAll } from "./relay.ts";

export class LazyReplyConn implements HandshakeConn {
  private replied = false;

  constructor(
    private readonly inner: Conn,
    private readonly success: Uint8Array,
    private readonly failure: (error: unknown) => Uint8Array,
  ) {}

  async handshakeSuccess(): Promise<void> {
    if (this.replied) return;
    this.replied = true;
    await writeAll(this.inner, this.success);
  }

  async handshakeFailure(error: unknown): Promise<void> {
    if (!this.replied) {
      this.replied = true;
      await writeAll(this.inner, this.failure(error)).catch(() => {});
    }
    this.inner.close();
  }

  async read(p: Uint8Array): Promise<number | null> {
    if (!this.replied) await this.handshakeSuccess();
    return await this.inner.read(p);
  }

  async write(p: Uint8Array): Promise<number> {
    if (!this.replied) await this.handshakeSuccess();
    return await this.inner.write(p);
  }

  closeWrite(): Promise<void> {
    return this.inner.closeWrite();
  }

  close(): void {
    this.inner.close();
  }
}
