/**
 * A byte stream over WebSocket binary messages. Reads parse frames from one reusable buffer and
 * copy payload straight into the caller's buffer; message boundaries and fragmentation carry no
 * meaning for a tunnel, so data frames of any opcode are just bytes. Pings are answered. A close
 * frame ends the read side only: its echo waits until this side ends too (closeWrite or close), so
 * a half-closed tunnel can still answer. The client masks every frame it sends (RFC 6455 5.3) and
 * the server refuses unmasked ones; writes and control replies share one lock so frames never
 * interleave.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import {
  applyMask,
  frameHeaderSize,
  OP_BINARY,
  OP_CLOSE,
  OP_PING,
  OP_PONG,
  parseFrameHeader,
  writeFrameHeader,
} from "./frame.ts";

/** Bytes a single write frame carries at most. */
const MAX_WRITE_FRAME = 256 * 1024;
/** Room for the longest header (14 bytes) in front of a 16-aligned payload. */
const HEAD_ROOM = 16;

export class WsConn implements Conn {
  private rbuf = new Uint8Array(16 * 1024);
  private rstart = 0;
  private rend = 0;
  /** Payload bytes of the current data frame not yet read. */
  private remaining = 0;
  private rmask: Uint8Array | undefined;
  private rphase = 0;
  private eof = false;
  private wbuf = new Uint8Array(HEAD_ROOM + 16 * 1024);
  private wlock: Promise<unknown> = Promise.resolve();
  private closeSent = false;
  private closed = false;

  /** `client`: masks what it sends and expects unmasked frames (and the reverse for a server). */
  constructor(private readonly inner: Conn, private readonly client: boolean) {}

  private async fill(): Promise<boolean> {
    if (this.rstart === this.rend) this.rstart = this.rend = 0;
    else if (this.rend === this.rbuf.length) {
      this.rbuf.copyWithin(0, this.rstart, this.rend);
      this.rend -= this.rstart;
      this.rstart = 0;
    }
    const n = await this.inner.read(this.rbuf.subarray(this.rend));
    if (n === null) return false;
    this.rend += n;
    return true;
  }

  async read(p: Uint8Array): Promise<number | null> {
    while (true) {
      if (this.eof) return null;
      if (this.remaining > 0) return await this.readPayload(p);
      const h = parseFrameHeader(this.rbuf.subarray(this.rstart, this.rend));
      if (!h) {
        if (!(await this.fill())) {
          this.eof = true;
          if (this.rend > this.rstart) {
            throw new ProtocolError("WebSocket stream ended inside a frame header");
          }
          return null;
        }
        continue;
      }
      if (!!h.mask === this.client) {
        throw new ProtocolError(
          this.client ? "WebSocket server sent a masked frame" : "WebSocket client sent an unmasked frame",
        );
      }
      this.rstart += h.size;
      if (h.opcode >= OP_CLOSE) {
        await this.control(h.opcode, h.length, h.mask);
        continue;
      }
      this.remaining = h.length;
      this.rmask = h.mask;
      this.rphase = 0;
    }
  }

  private async readPayload(p: Uint8Array): Promise<number | null> {
    let n: number;
    if (this.rend > this.rstart) {
      n = Math.min(p.length, this.remaining, this.rend - this.rstart);
      p.set(this.rbuf.subarray(this.rstart, this.rstart + n));
      this.rstart += n;
    } else {
      // Nothing buffered: read the payload straight into the caller's buffer.
      const r = await this.inner.read(p.length > this.remaining ? p.subarray(0, this.remaining) : p);
      if (r === null) throw new ProtocolError("WebSocket stream ended inside a frame");
      n = r;
    }
    if (this.rmask) this.rphase = applyMask(p.subarray(0, n), this.rmask, this.rphase);
    this.remaining -= n;
    return n;
  }

  private async control(opcode: number, length: number, mask: Uint8Array | undefined): Promise<void> {
    while (this.rend - this.rstart < length) {
      if (!(await this.fill())) throw new ProtocolError("WebSocket stream ended inside a control frame");
    }
    const payload = this.rbuf.slice(this.rstart, this.rstart + length);
    this.rstart += length;
    if (mask) applyMask(payload, mask, 0);
    if (opcode === OP_PING) {
      await this.sendFrame(OP_PONG, payload).catch(() => {});
    } else if (opcode === OP_CLOSE) {
      this.eof = true;
    }
  }

  write(p: Uint8Array): Promise<number> {
    if (this.closed) return Promise.reject(new ProtocolError("WebSocket connection is closed"));
    return this.locked(async () => {
      for (let off = 0; off < p.length; off += MAX_WRITE_FRAME) {
        await this.writeFrame(OP_BINARY, p.subarray(off, Math.min(p.length, off + MAX_WRITE_FRAME)));
      }
      return p.length;
    });
  }

  private locked<T>(f: () => Promise<T>): Promise<T> {
    const run = this.wlock.then(f, f);
    this.wlock = run.catch(() => {});
    return run;
  }

  private sendFrame(opcode: number, payload: Uint8Array): Promise<void> {
    if (opcode === OP_CLOSE) this.closeSent = true;
    return this.locked(() => this.writeFrame(opcode, payload));
  }

  /** Header and payload in one buffer, one write: the payload sits 16-aligned for fast masking. */
  private async writeFrame(opcode: number, payload: Uint8Array): Promise<void> {
    const n = payload.length;
    if (this.wbuf.length < HEAD_ROOM + n) {
      this.wbuf = new Uint8Array(HEAD_ROOM + Math.max(n, this.wbuf.length * 2));
    }
    const mask = this.client ? crypto.getRandomValues(new Uint8Array(4)) : undefined;
    const h = frameHeaderSize(n, this.client);
    writeFrameHeader(this.wbuf, HEAD_ROOM - h, opcode, n, mask);
    const body = this.wbuf.subarray(HEAD_ROOM, HEAD_ROOM + n);
    body.set(payload);
    if (mask) applyMask(body, mask, 0);
    let off = HEAD_ROOM - h;
    const end = HEAD_ROOM + n;
    while (off < end) off += await this.inner.write(this.wbuf.subarray(off, end));
  }

  /** Half-close: WebSocket has none, so like sing-box this sends a close frame (normal closure). */
  async closeWrite(): Promise<void> {
    if (this.closeSent || this.closed) return;
    await this.sendFrame(OP_CLOSE, new Uint8Array([0x03, 0xe8]));
  }

  /** Sends a close frame when none was sent (bounded by a short timer), then closes the socket. */
  close(): void {
    if (this.closed) return;
    const end = () => {
      try {
        this.inner.close();
      } catch { /* already closed */ }
    };
    if (this.closeSent) {
      this.closed = true;
      return end();
    }
    const timer = setTimeout(end, 1000);
    this.sendFrame(OP_CLOSE, new Uint8Array([0x03, 0xe8])).catch(() => {}).finally(() => {
      clearTimeout(timer);
      end();
    });
    this.closed = true;
  }
}
