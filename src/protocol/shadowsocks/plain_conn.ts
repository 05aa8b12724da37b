/** Method "none": the target address, then the bytes as they are (client side). */
import type { Address, Conn } from "../../adapter/mod.ts";
import { writeAll } from "../../net/relay.ts";
import { encodeAddress } from "./wire.ts";

export class PlainConn implements Conn {
  private header?: Uint8Array;

  constructor(private readonly inner: Conn, destination: Address) {
    this.header = encodeAddress(destination);
  }

  private async flush(p: Uint8Array): Promise<void> {
    const h = this.header!;
    this.header = undefined;
    const out = new Uint8Array(h.length + p.length);
    out.set(h);
    out.set(p, h.length);
    await writeAll(this.inner, out);
  }

  async read(p: Uint8Array): Promise<number | null> {
    if (this.header) await this.flush(new Uint8Array(0));
    return await this.inner.read(p);
  }

  async write(p: Uint8Array): Promise<number> {
    if (this.header) {
      await this.flush(p);
      return p.length;
    }
    return await this.inner.write(p);
  }

  async closeWrite(): Promise<void> {
    if (this.header) await this.flush(new Uint8Array(0));
    await this.inner.closeWrite();
  }

  close(): void {
    try {
      this.inner.close();
    } catch { /* already closed */ }
  }
}
