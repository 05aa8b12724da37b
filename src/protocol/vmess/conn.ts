/**
 * A VMess connection after the request header: a Conn over body chunks (or raw bytes for the
 * `zero` security), and a PacketStream for UDP requests where each chunk is one datagram. The
 * header the peer waits for (the client's request, the server's response) goes out with the first
 * write, or with the first read on the client (server-speaks-first protocols). The client reads
 * and checks the server's response header before the first chunk.
 * One read buffer and one write buffer per connection, reused for every chunk.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { writeAll } from "../../net/relay.ts";
import type { PacketStream } from "../../transport/xudp/mod.ts";
import { ChunkOpener, ChunkSealer, MAX_CHUNK_PAYLOAD, MAX_CHUNK_WIRE } from "./body.ts";

const CHUNK_ROOM = MAX_CHUNK_PAYLOAD + 18 + 16 + 64;
/** Chunks sealed per socket write at most (bulk writes from the relay come in up to 512 KiB). */
const CHUNKS_PER_WRITE = 8;

export interface VmessConnOptions {
  /** Body codecs; absent for raw bytes (`zero`). */
  sealer?: ChunkSealer;
  opener?: ChunkOpener;
  /** Bytes to send before the first chunk (request or response header). */
  prefix?: Uint8Array;
  /** Client: reads and checks the response header from the buffered bytes; returns bytes used or undefined for more. */
  readHeader?: (b: Uint8Array) => number | undefined;
}

export class VmessConn implements Conn, PacketStream {
  private rbuf = new Uint8Array(32 * 1024);
  private rstart = 0;
  private rend = 0;
  /** Decrypted payload not yet handed out: rbuf[pstart, pend). */
  private pstart = 0;
  private pend = 0;
  private wbuf = new Uint8Array(0);
  private prefix?: Uint8Array;
  private prefixSent?: Promise<void>;
  private readHeader?: VmessConnOptions["readHeader"];
  private readEnded = false;
  private writeEnded = false;
  private closed = false;

  constructor(private readonly inner: Conn, private readonly o: VmessConnOptions) {
    this.prefix = o.prefix;
    this.readHeader = o.readHeader;
  }

  /** Sends the pending header on its own (a read came first). */
  private flushPrefix(): Promise<void> {
    if (this.prefix) {
      const pre = this.prefix;
      this.prefix = undefined;
      this.prefixSent = writeAll(this.inner, pre);
    }
    return this.prefixSent ?? Promise.resolve();
  }

  /** Reads more from the socket into rbuf; false at end of stream. */
  private async fill(): Promise<boolean> {
    if (this.rstart === this.rend) this.rstart = this.rend = 0;
    if (this.rend === this.rbuf.length) {
      const live = this.rend - this.rstart;
      const grown = new Uint8Array(
        live + CHUNK_ROOM > this.rbuf.length ? MAX_CHUNK_WIRE + 64 * 1024 : this.rbuf.length,
      );
      grown.set(this.rbuf.subarray(this.rstart, this.rend));
      this.rbuf = grown;
      this.rstart = 0;
      this.rend = live;
    }
    const n = await this.inner.read(this.rbuf.subarray(this.rend));
    if (n === null) return false;
    this.rend += n;
    return true;
  }

  /** Makes the next chunk's payload available in rbuf[pstart, pend); false at end of stream. */
  private async nextChunk(): Promise<boolean> {
    if (this.readHeader) {
      if (this.prefix) await this.flushPrefix();
      let used: number | undefined;
      while ((used = this.readHeader(this.rbuf.subarray(this.rstart, this.rend))) === undefined) {
        if (!(await this.fill())) throw new ProtocolError("VMess server closed before its response header");
      }
      this.rstart += used;
      this.readHeader = undefined;
    }
    const opener = this.o.opener!;
    while (true) {
      // The codecs are disposed on close: a read that resumes afterwards must not touch them.
      if (this.closed) return false;
      const got = opener.open(this.rbuf.subarray(this.rstart, this.rend));
      if (got) {
        this.pstart = this.rstart + got.start;
        this.pend = this.pstart + got.length;
        this.rstart += got.consumed;
        return got.length > 0;
      }
      // Room for a whole chunk must exist past rstart: compact when the tail is short.
      if (this.rbuf.length - this.rstart < CHUNK_ROOM && this.rstart > 0) {
        this.rbuf.copyWithin(0, this.rstart, this.rend);
        this.rend -= this.rstart;
        this.rstart = 0;
      }
      if (!(await this.fill())) {
        // A peer that closes without the terminating chunk ends the stream too (v2ray does so).
        if (this.rstart === this.rend) return false;
        throw new ProtocolError("VMess stream ended inside a chunk");
      }
    }
  }

  async read(p: Uint8Array): Promise<number | null> {
    if (this.pstart === this.pend) {
      if (this.readEnded) return null;
      if (!this.o.opener) {
        if (this.readHeader) await this.nextChunkHeaderOnly();
        if (this.rstart < this.rend) {
          const n = Math.min(p.length, this.rend - this.rstart);
          p.set(this.rbuf.subarray(this.rstart, this.rstart + n));
          this.rstart += n;
          return n;
        }
        return await this.inner.read(p);
      }
      if (!(await this.nextChunk())) {
        this.readEnded = true;
        return null;
      }
    }
    const n = Math.min(p.length, this.pend - this.pstart);
    p.set(this.rbuf.subarray(this.pstart, this.pstart + n));
    this.pstart += n;
    return n;
  }

  /** Raw mode (`zero`): only the response header is framed. */
  private async nextChunkHeaderOnly(): Promise<void> {
    if (this.prefix) await this.flushPrefix();
    let used: number | undefined;
    while ((used = this.readHeader!(this.rbuf.subarray(this.rstart, this.rend))) === undefined) {
      if (!(await this.fill())) throw new ProtocolError("VMess server closed before its response header");
    }
    this.rstart += used;
    this.readHeader = undefined;
  }

  /** Seals `p` as chunks (one chunk when `single`) after any pending header, and writes them. */
  private async writeChunks(p: Uint8Array, single: boolean): Promise<void> {
    if (this.prefixSent) await this.prefixSent;
    const sealer = this.o.sealer!;
    let off = 0;
    do {
      const chunks = Math.min(CHUNKS_PER_WRITE, Math.max(1, Math.ceil((p.length - off) / MAX_CHUNK_PAYLOAD)));
      const need = (this.prefix?.length ?? 0) + chunks * CHUNK_ROOM + (single ? p.length : 0);
      if (this.wbuf.length < need) this.wbuf = new Uint8Array(need);
      if (this.closed) throw new ProtocolError("VMess connection is closed");
      let w = 0;
      if (this.prefix) {
        this.wbuf.set(this.prefix);
        w = this.prefix.length;
        this.prefix = undefined;
      }
      for (let k = 0; k < chunks && (off < p.length || k === 0); k++) {
        const n = single ? p.length : Math.min(MAX_CHUNK_PAYLOAD, p.length - off);
        w += sealer.seal(p.subarray(off, off + n), this.wbuf.subarray(w));
        off += n;
      }
      await writeAll(this.inner, this.wbuf.subarray(0, w));
    } while (off < p.length);
  }

  async write(p: Uint8Array): Promise<number> {
    if (this.writeEnded) throw new ProtocolError("VMess write after closeWrite");
    if (p.length === 0) return 0;
    if (!this.o.sealer) {
      if (this.prefix) {
        const all = new Uint8Array(this.prefix.length + p.length);
        all.set(this.prefix);
        all.set(p, this.prefix.length);
        this.prefix = undefined;
        await writeAll(this.inner, all);
      } else {
        if (this.prefixSent) await this.prefixSent;
        await writeAll(this.inner, p);
      }
      return p.length;
    }
    await this.writeChunks(p, false);
    return p.length;
  }

  async closeWrite(): Promise<void> {
    if (this.writeEnded || this.closed) return;
    this.writeEnded = true;
    if (!this.o.sealer) {
      await this.flushPrefix();
      return await this.inner.closeWrite();
    }
    // The empty chunk ends the stream; the socket stays open for the other direction.
    await this.writeChunks(new Uint8Array(0), true);
  }

  // PacketStream: one chunk is one datagram.
  async readPacket(): Promise<Uint8Array | null> {
    if (this.readEnded || !(await this.nextChunk())) {
      this.readEnded = true;
      return null;
    }
    const data = this.rbuf.slice(this.pstart, this.pend);
    this.pstart = this.pend;
    return data;
  }

  async writePacket(data: Uint8Array): Promise<void> {
    if (data.length === 0) return;
    if (data.length > 0xffff - 100) throw new ProtocolError(`Datagram of ${data.length} bytes is too large`);
    await this.writeChunks(data, true);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.inner.close();
    } catch { /* already closed */ }
    this.o.sealer?.dispose();
    this.o.opener?.dispose();
  }
}
