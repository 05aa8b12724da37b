/**
 * A byte stream over gun messages on one HTTP/2 stream. A plain Hunk (the one field sing-box and
 * Xray send) streams its payload straight into the reader's buffer; anything else (MultiHunk,
 * extra fields) is read whole, within the message size limit, and decoded.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { H2Stream } from "../h2/stream.ts";
import { gunMessageSize, parseGrpcPrefix, parseHunk, writeGunHeader } from "./wire.ts";

const MAX_WRITE_MESSAGE = 256 * 1024;

export class GunConn implements Conn {
  private rbuf = new Uint8Array(32 * 1024);
  private rstart = 0;
  private rend = 0;
  /** Payload bytes of the current plain Hunk still to read. */
  private remaining = 0;
  private pending: Uint8Array[] = [];
  private wbuf = new Uint8Array(0);

  constructor(readonly stream: H2Stream) {}

  private async need(n: number): Promise<boolean> {
    while (this.rend - this.rstart < n) {
      if (this.rstart > 0) {
        this.rbuf.copyWithin(0, this.rstart, this.rend);
        this.rend -= this.rstart;
        this.rstart = 0;
      }
      if (this.rbuf.length < n) {
        const b = new Uint8Array(n);
        b.set(this.rbuf.subarray(0, this.rend));
        this.rbuf = b;
      }
      const r = await this.stream.read(this.rbuf.subarray(this.rend));
      if (r === null) {
        if (this.rend > this.rstart) throw new ProtocolError("gRPC stream ended inside a message");
        const status = this.stream.trailers?.find(([k]) => k === "grpc-status")?.[1];
        if (status && status !== "0") {
          const msg = this.stream.trailers?.find(([k]) => k === "grpc-message")?.[1] ?? "";
          throw new ProtocolError(`gRPC stream ended with status "${status}": ${decodeURIComponent(msg)}`);
        }
        return false;
      }
      this.rend += r;
    }
    return true;
  }

  async read(p: Uint8Array): Promise<number | null> {
    while (true) {
      if (this.pending.length) {
        const c = this.pending[0];
        const n = Math.min(c.length, p.length);
        p.set(c.subarray(0, n));
        if (n === c.length) this.pending.shift();
        else this.pending[0] = c.subarray(n);
        return n;
      }
      if (this.remaining > 0) {
        let n: number;
        if (this.rend > this.rstart) {
          n = Math.min(p.length, this.remaining, this.rend - this.rstart);
          p.set(this.rbuf.subarray(this.rstart, this.rstart + n));
          this.rstart += n;
        } else {
          const r = await this.stream.read(p.length > this.remaining ? p.subarray(0, this.remaining) : p);
          if (r === null) throw new ProtocolError("gRPC stream ended inside a message");
          n = r;
        }
        this.remaining -= n;
        return n;
      }
      if (!(await this.need(5))) return null;
      const len = parseGrpcPrefix(this.rbuf, this.rstart);
      this.rstart += 5;
      if (len === 0) continue;
      // Fast path: tag 0x0a, then a varint that covers the rest of the message exactly.
      await this.need(Math.min(len, 6));
      if (this.rbuf[this.rstart] === 0x0a) {
        let v = 0, mul = 1, i = this.rstart + 1;
        for (; i < this.rend && i < this.rstart + 6; i++) {
          v += (this.rbuf[i] & 0x7f) * mul;
          mul *= 128;
          if (!(this.rbuf[i] & 0x80)) break;
        }
        const head = i + 1 - this.rstart;
        if (i < this.rend && !(this.rbuf[i] & 0x80) && head + v === len) {
          this.rstart += head;
          this.remaining = v;
          continue;
        }
      }
      if (!(await this.need(len))) throw new ProtocolError("gRPC stream ended inside a message");
      const msg = this.rbuf.slice(this.rstart, this.rstart + len);
      this.rstart += len;
      this.pending = parseHunk(msg).filter((c) => c.length > 0);
    }
  }

  async write(p: Uint8Array): Promise<number> {
    for (let off = 0; off < p.length; off += MAX_WRITE_MESSAGE) {
      const chunk = p.subarray(off, Math.min(p.length, off + MAX_WRITE_MESSAGE));
      const size = gunMessageSize(chunk.length);
      if (this.wbuf.length < size) this.wbuf = new Uint8Array(Math.max(size, 1024));
      const h = writeGunHeader(this.wbuf, 0, chunk.length);
      this.wbuf.set(chunk, h);
      await this.stream.write(this.wbuf.subarray(0, size));
    }
    return p.length;
  }

  closeWrite(): Promise<void> {
    return this.stream.closeWrite();
  }

  close(): void {
    this.stream.close();
  }
}
