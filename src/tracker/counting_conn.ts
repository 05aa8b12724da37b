/** A dialed Conn whose bytes count in the tracker; closing it ends the tracked connection. */
import type { Conn } from "../adapter/mod.ts";
import { closeQuietly } from "../net/relay.ts";
import type { TrackedConnection } from "./tracker.ts";

export class CountingConn implements Conn {
  private done = false;
  constructor(
    private readonly inner: Conn,
    private readonly t: TrackedConnection,
    private readonly onClose: () => void,
  ) {}
  async read(p: Uint8Array): Promise<number | null> {
    const n = await this.inner.read(p);
    if (n) this.t.counters.down += n;
    return n;
  }
  async write(p: Uint8Array): Promise<number> {
    const n = await this.inner.write(p);
    this.t.counters.up += n;
    return n;
  }
  closeWrite(): Promise<void> {
    return this.inner.closeWrite();
  }
  close(): void {
    closeQuietly(this.inner);
    if (!this.done) {
      this.done = true;
      this.onClose();
    }
  }
}
