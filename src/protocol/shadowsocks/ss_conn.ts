/**
 * A shadowsocks AEAD stream as a Conn: the handshake code (client.ts, server.ts) fills in what
 * goes before the first chunk (`first`) and what to read before the first payload (`readHead`).
 */
import type { Conn } from "../../adapter/mod.ts";
import { writeAll } from "../../net/relay.ts";
import { ChunkReader } from "./chunk_reader.ts";
import { ChunkWriter } from "./chunk_writer.ts";

/** How long a client waits for the first payload to send with its header (one round trip saved). */
const EARLY_DATA_WAIT_MS = 100;

export class ShadowsocksConn implements Conn {
  /** Builds the first frame (salt, headers and `p` as chunks); cleared once used. */
  first?: (p: Uint8Array) => Uint8Array;
  /** Reads what comes before the first payload (response salt and header); null at a clean end. */
  readHead?: () => Promise<boolean>;
  /** Payload that came with the request header, handed out before anything else. */
  pending?: Uint8Array;
  writer?: ChunkWriter;
  private firstSent?: () => void;
  private readonly firstWrite: Promise<void>;
  private closed = false;

  constructor(readonly inner: Conn, readonly reader: ChunkReader, private readonly waitForPayload = false) {
    this.firstWrite = new Promise((r) => (this.firstSent = r));
  }

  async read(p: Uint8Array): Promise<number | null> {
    if (this.pending) {
      const n = Math.min(p.length, this.pending.length);
      p.set(this.pending.subarray(0, n));
      this.pending = n === this.pending.length ? undefined : this.pending.subarray(n);
      return n;
    }
    if (this.first && this.waitForPayload) {
      // The server answers nothing before our header: send it alone if no payload comes soon.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.firstWrite, new Promise((r) => (timer = setTimeout(r, EARLY_DATA_WAIT_MS)))]);
      clearTimeout(timer);
      if (this.first !== undefined) await this.write(new Uint8Array(0));
    }
    if (this.readHead) {
      const head = this.readHead;
      this.readHead = undefined;
      if (!(await head())) return null;
    }
    return await this.reader.read(p);
  }

  async write(p: Uint8Array): Promise<number> {
    const first = this.first;
    if (first) {
      this.first = undefined;
      this.firstSent?.();
      const [head] = ChunkWriter.batches(p);
      const bytes = first(head ?? p);
      await writeAll(this.inner, bytes);
      const done = head?.length ?? 0;
      if (done < p.length) await this.write(p.subarray(done));
      return p.length;
    }
    if (p.length === 0) return 0;
    const w = this.writer!;
    for (const part of ChunkWriter.batches(p)) {
      if (this.closed) throw new Deno.errors.BadResource("Connection closed");
      const out = w.buffer(w.sealedSize(part.length));
      const end = w.sealChunks(part, out, 0);
      await writeAll(this.inner, out.subarray(0, end));
    }
    return p.length;
  }

  async closeWrite(): Promise<void> {
    if (this.first && this.waitForPayload) await this.write(new Uint8Array(0));
    await this.inner.closeWrite();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.inner.close();
    } catch { /* already closed */ }
    this.reader.aead?.dispose();
    this.reader.aead = undefined;
    this.writer?.aead.dispose();
  }
}
