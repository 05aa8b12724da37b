/**
 * A VLESS stream after the header: plain bytes, with the header the peer waits for (the client's
 * request, the server's response) sent along with the first write, or on the client's first read
 * (server-speaks-first protocols). The client strips the server's response header on first read.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { writeAll } from "../../net/relay.ts";
import { responseLength } from "./wire.ts";

export class VlessConn implements Conn {
  private prefix?: Uint8Array;
  private prefixSent?: Promise<void>;
  private expectResponse: boolean;
  private head = new Uint8Array(0);

  constructor(private readonly inner: Conn, prefix: Uint8Array | undefined, expectResponse: boolean) {
    this.prefix = prefix;
    this.expectResponse = expectResponse;
  }

  private flushPrefix(): Promise<void> {
    if (this.prefix) {
      const pre = this.prefix;
      this.prefix = undefined;
      this.prefixSent = writeAll(this.inner, pre);
    }
    return this.prefixSent ?? Promise.resolve();
  }

  async read(p: Uint8Array): Promise<number | null> {
    if (this.expectResponse) {
      await this.flushPrefix();
      let buf = new Uint8Array(0);
      let len: number | undefined;
      while ((len = responseLength(buf)) === undefined) {
        const n = await this.inner.read(p);
        if (n === null) throw new ProtocolError("VLESS server closed before its response header");
        const grown = new Uint8Array(buf.length + n);
        grown.set(buf);
        grown.set(p.subarray(0, n), buf.length);
        buf = grown;
      }
      this.expectResponse = false;
      this.head = buf.subarray(len);
    }
    if (this.head.length > 0) {
      const n = Math.min(p.length, this.head.length);
      p.set(this.head.subarray(0, n));
      this.head = this.head.subarray(n);
      return n;
    }
    return await this.inner.read(p);
  }

  async write(p: Uint8Array): Promise<number> {
    if (this.prefix) {
      const all = new Uint8Array(this.prefix.length + p.length);
      all.set(this.prefix);
      all.set(p, this.prefix.length);
      this.prefix = undefined;
      await writeAll(this.inner, all);
      return p.length;
    }
    if (this.prefixSent) await this.prefixSent;
    return await this.inner.write(p);
  }

  async closeWrite(): Promise<void> {
    await this.flushPrefix();
    await this.inner.closeWrite();
  }

  close(): void {
    try {
      this.inner.close();
    } catch { /* already closed */ }
  }
}
