/**
 * One HTTP/2 connection, client or server side (RFC 9113), written here because Deno's node:http2
 * over a non-socket duplex ran at ~1.5 MB/s in our measurement (see scripts/bench/transport.ts).
 * It keeps what a tunnel needs: streams with flow control (large windows, batched WINDOW_UPDATE),
 * SETTINGS, PING (with the client's idle health check), GOAWAY and RST_STREAM. HPACK comes from
 * hpack.js. Any connection-level violation sends GOAWAY and fails every stream with a
 * ProtocolError; a stream-level one resets only that stream.
 */
import type { Conn } from "../../adapter/mod.ts";
import { errorText, ProtocolError } from "../../common/errors.ts";
import { writeAll } from "../../net/relay.ts";
import * as F from "./frame.ts";
import { type HeaderList, HpackCodec } from "./hpack.ts";
import { H2Stream, type StreamSession } from "./stream.ts";

/** Per-stream receive window: bounds the bytes queued for a slow reader. */
export const STREAM_WINDOW = 4 * 1024 * 1024;
/** Connection receive window, shared by all streams. */
export const CONN_WINDOW = 16 * 1024 * 1024;
/** Largest frame we accept (advertised in SETTINGS); fewer frames per byte than the 16 KiB default. */
const OUR_MAX_FRAME = 256 * 1024;
const MAX_HEADER_BLOCK = 64 * 1024;
const MAX_PEER_STREAMS = 1024;

export interface SessionOptions {
  client: boolean;
  /** Server: a new request stream; the handler answers with `respond`. */
  onRequest?: (stream: H2Stream, headers: HeaderList) => void;
  /** Client: PING when nothing was read for this long (sing-box `idle_timeout`). */
  idleTimeoutMs?: number;
  /** Client: fail the connection when a PING is not answered within this (`ping_timeout`). */
  pingTimeoutMs?: number;
}

export class H2Session implements StreamSession {
  private readonly streams = new Map<number, H2Stream>();
  private readonly hpack = new HpackCodec();
  private nextId: number;
  private lastPeerId = 0;
  private peerMaxFrame = 16384;
  private peerInitialWindow = F.DEFAULT_WINDOW;
  private peerMaxStreams = Infinity;
  private connSendWindow = F.DEFAULT_WINDOW;
  private connRecvWindow = CONN_WINDOW;
  private connUnacked = 0;
  private windowWaiters = new Set<() => void>();
  private wchain: Promise<unknown> = Promise.resolve();
  private wbuf = new Uint8Array(F.FRAME_HEADER_SIZE + 16384);
  private goaway = false;
  private closed = false;
  private lastRead = Date.now();
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pingDeadline: ReturnType<typeof setTimeout> | undefined;
  /** Resolves when the connection has ended (cleanly or not). */
  readonly done: Promise<void>;

  constructor(private readonly conn: Conn, private readonly opts: SessionOptions) {
    this.nextId = opts.client ? 1 : 2;
    const settings: [number, number][] = [
      [F.SETTINGS_INITIAL_WINDOW_SIZE, STREAM_WINDOW],
      [F.SETTINGS_MAX_FRAME_SIZE, OUR_MAX_FRAME],
      [F.SETTINGS_MAX_HEADER_LIST_SIZE, MAX_HEADER_BLOCK],
    ];
    if (opts.client) settings.unshift([F.SETTINGS_ENABLE_PUSH, 0]);
    else settings.unshift([F.SETTINGS_MAX_CONCURRENT_STREAMS, MAX_PEER_STREAMS]);
    const update = new Uint8Array(4);
    F.writeU32(update, 0, CONN_WINDOW - F.DEFAULT_WINDOW);
    if (opts.client) this.queue(F.PREFACE);
    this.queue(F.encodeSettings(settings));
    this.queue(F.encodeFrame(F.WINDOW_UPDATE, 0, 0, update));
    this.done = this.run();
    if (opts.client && opts.idleTimeoutMs) {
      this.startHealthCheck(opts.idleTimeoutMs, opts.pingTimeoutMs ?? 15_000);
    }
  }

  /** True while new streams can be opened on this connection. */
  get available(): boolean {
    return !this.closed && !this.goaway && this.nextId < 2 ** 31 - 1 &&
      this.streams.size < this.peerMaxStreams;
  }

  get activeStreams(): number {
    return this.streams.size;
  }

  /** Client: opens a request stream; HEADERS go out now, the response is awaited by the stream. */
  request(headers: HeaderList, endStream = false): H2Stream {
    if (!this.available) throw new ProtocolError("HTTP/2 connection cannot open more streams");
    const s = new H2Stream(this.nextId, this, this.peerInitialWindow, STREAM_WINDOW);
    this.nextId += 2;
    this.streams.set(s.id, s);
    this.sendHeaders(s.id, headers, endStream);
    if (endStream) s.localEnded = true;
    return s;
  }

  /** Server: answers a request stream with headers (END_STREAM when `end`). */
  respond(s: H2Stream, headers: HeaderList, end = false): Promise<void> {
    if (end) s.localEnded = true;
    const p = this.sendHeaders(s.id, headers, end);
    if (end) this.forgetIfDone(s);
    return p;
  }

  // ---------------------------------------------------------------- writing

  private queue(frame: Uint8Array): Promise<void> {
    return this.locked(() => writeAll(this.conn, frame));
  }

  private locked(f: () => Promise<void>): Promise<void> {
    const run = this.wchain.then(
      () => (this.closed ? Promise.reject(new ProtocolError("HTTP/2 connection is closed")) : f()),
    );
    this.wchain = run.catch((e) => this.fail(e, false));
    return run;
  }

  /** Encodes now (HPACK state follows the wire order), splits into CONTINUATION when needed. */
  private sendHeaders(id: number, headers: HeaderList, endStream: boolean): Promise<void> {
    const block = this.hpack.encode(headers);
    const frames: Uint8Array[] = [];
    for (let off = 0; off < block.length || off === 0; off += this.peerMaxFrame) {
      const part = block.subarray(off, Math.min(block.length, off + this.peerMaxFrame));
      const last = off + this.peerMaxFrame >= block.length;
      const type = off === 0 ? F.HEADERS : F.CONTINUATION;
      const flags = (last ? F.FLAG_END_HEADERS : 0) | (off === 0 && endStream ? F.FLAG_END_STREAM : 0);
      frames.push(F.encodeFrame(type, flags, id, part));
      if (last) break;
    }
    return this.locked(async () => {
      for (const f of frames) await writeAll(this.conn, f);
    });
  }

  async sendData(s: H2Stream, p: Uint8Array): Promise<void> {
    let off = 0;
    while (off < p.length) {
      while (s.sendWindow <= 0 || this.connSendWindow <= 0) {
        if (s.failed) throw s.failed;
        if (this.closed) throw new ProtocolError("HTTP/2 connection is closed");
        await new Promise<void>((r) => this.windowWaiters.add(r));
      }
      if (s.failed) throw s.failed;
      const n = Math.min(p.length - off, s.sendWindow, this.connSendWindow, this.peerMaxFrame);
      s.sendWindow -= n;
      this.connSendWindow -= n;
      const chunk = p.subarray(off, off + n);
      off += n;
      // Header and payload in one reused buffer: one socket write per frame.
      await this.locked(async () => {
        if (this.wbuf.length < F.FRAME_HEADER_SIZE + n) {
          this.wbuf = new Uint8Array(F.FRAME_HEADER_SIZE + this.peerMaxFrame);
        }
        F.writeFrameHeader(this.wbuf, 0, { length: n, type: F.DATA, flags: 0, stream: s.id });
        this.wbuf.set(chunk, F.FRAME_HEADER_SIZE);
        await writeAll(this.conn, this.wbuf.subarray(0, F.FRAME_HEADER_SIZE + n));
      });
    }
  }

  async sendEnd(s: H2Stream, trailers?: HeaderList): Promise<void> {
    if (trailers) await this.sendHeaders(s.id, trailers, true);
    else await this.queue(F.encodeFrame(F.DATA, F.FLAG_END_STREAM, s.id, new Uint8Array(0)));
    this.forgetIfDone(s);
  }

  sendReset(s: H2Stream, code: number): void {
    const p = new Uint8Array(4);
    F.writeU32(p, 0, code);
    this.streams.delete(s.id);
    if (!this.closed) this.queue(F.encodeFrame(F.RST_STREAM, 0, s.id, p)).catch(() => {});
  }

  consumed(s: H2Stream, n: number): void {
    s.unacked += n;
    this.connUnacked += n;
    if (s.unacked >= STREAM_WINDOW / 4 && !s.remoteEnded) {
      this.windowUpdate(s.id, s.unacked);
      s.recvWindow += s.unacked;
      s.unacked = 0;
    }
    this.connConsumed(0);
  }

  private connConsumed(extra: number): void {
    this.connUnacked += extra;
    if (this.connUnacked >= CONN_WINDOW / 4) {
      this.windowUpdate(0, this.connUnacked);
      this.connRecvWindow += this.connUnacked;
      this.connUnacked = 0;
    }
  }

  private windowUpdate(id: number, n: number): void {
    const p = new Uint8Array(4);
    F.writeU32(p, 0, n);
    if (!this.closed) this.queue(F.encodeFrame(F.WINDOW_UPDATE, 0, id, p)).catch(() => {});
  }

  private wakeWriters(): void {
    const w = [...this.windowWaiters];
    this.windowWaiters.clear();
    for (const f of w) f();
  }

  private forgetIfDone(s: H2Stream): void {
    if (s.localEnded && s.remoteEnded) this.streams.delete(s.id);
  }

  // ---------------------------------------------------------------- reading

  private async run(): Promise<void> {
    let buf = new Uint8Array(64 * 1024);
    let start = 0, end = 0;
    const need = async (n: number): Promise<boolean> => {
      while (end - start < n) {
        if (start > 0 && (buf.length - start < n || start === end)) {
          buf.copyWithin(0, start, end);
          end -= start;
          start = 0;
        }
        if (buf.length < n) {
          const bigger = new Uint8Array(Math.max(n, buf.length * 2));
          bigger.set(buf.subarray(0, end));
          buf = bigger;
        }
        const r = await this.conn.read(buf.subarray(end));
        if (r === null) return false;
        end += r;
      }
      return true;
    };
    try {
      if (!this.opts.client) {
        if (!(await need(F.PREFACE.length))) {
          throw new ProtocolError("HTTP/2 connection closed before the preface");
        }
        for (let i = 0; i < F.PREFACE.length; i++) {
          if (buf[start + i] !== F.PREFACE[i]) throw new ProtocolError("HTTP/2 client preface is wrong");
        }
        start += F.PREFACE.length;
      }
      let block: { id: number; flags: number; parts: Uint8Array[]; size: number } | undefined;
      while (await need(F.FRAME_HEADER_SIZE)) {
        const h = F.parseFrameHeader(buf, start);
        if (h.length > OUR_MAX_FRAME) {
          throw new ProtocolError(`HTTP/2 frame of ${h.length} bytes is too large`);
        }
        if (!(await need(F.FRAME_HEADER_SIZE + h.length))) {
          throw new ProtocolError("HTTP/2 connection ended inside a frame");
        }
        const payload = buf.subarray(start + F.FRAME_HEADER_SIZE, start + F.FRAME_HEADER_SIZE + h.length);
        start += F.FRAME_HEADER_SIZE + h.length;
        this.lastRead = Date.now();
        if (block && (h.type !== F.CONTINUATION || h.stream !== block.id)) {
          throw new ProtocolError("HTTP/2 header block interrupted by another frame");
        }
        if (h.type === F.HEADERS || h.type === F.CONTINUATION) {
          if (h.stream === 0) throw new ProtocolError("HTTP/2 HEADERS on stream 0");
          if (h.type === F.CONTINUATION && !block) {
            throw new ProtocolError("HTTP/2 CONTINUATION without HEADERS");
          }
          const part = h.type === F.HEADERS ? F.framePayload(h.type, h.flags, payload) : payload;
          block ??= { id: h.stream, flags: h.flags, parts: [], size: 0 };
          block.parts.push(part.slice());
          block.size += part.length;
          if (block.size > MAX_HEADER_BLOCK) throw new ProtocolError("HTTP/2 header block is too large");
          if (h.flags & F.FLAG_END_HEADERS) {
            const b = block;
            block = undefined;
            this.onHeaderBlock(b.id, b.flags, concat(b.parts, b.size));
          }
          continue;
        }
        this.onFrame(h, payload);
      }
      if (block) throw new ProtocolError("HTTP/2 connection ended inside a header block");
      this.fail(new ProtocolError("HTTP/2 connection closed by the peer"), false);
    } catch (e) {
      this.fail(e, true);
    }
  }

  private onHeaderBlock(id: number, flags: number, block: Uint8Array): void {
    const headers = this.hpack.decode(block);
    const end = (flags & F.FLAG_END_STREAM) !== 0;
    let s = this.streams.get(id);
    if (!s) {
      if (this.opts.client || id % 2 === 0 || id <= this.lastPeerId) {
        if (id > this.lastPeerId && !this.opts.client) {
          throw new ProtocolError("HTTP/2 client used an even stream id");
        }
        return; // a stream we already reset: ignore its late headers
      }
      this.lastPeerId = id;
      if (this.goaway || this.streams.size >= MAX_PEER_STREAMS) {
        const p = new Uint8Array(4);
        F.writeU32(p, 0, F.ERR_REFUSED_STREAM);
        this.queue(F.encodeFrame(F.RST_STREAM, 0, id, p)).catch(() => {});
        return;
      }
      s = new H2Stream(id, this, this.peerInitialWindow, STREAM_WINDOW);
      this.streams.set(id, s);
      s.onHeaders(headers);
      if (end) s.onEnd();
      this.opts.onRequest?.(s, headers);
      return;
    }
    const status = headers.find(([k]) => k === ":status")?.[1];
    if (status && status.startsWith("1") && status !== "101") return; // informational
    if (status !== undefined || !this.opts.client) s.onHeaders(headers);
    else s.trailers = headers;
    if (end) {
      if (!status && this.opts.client) s.trailers = headers;
      s.onEnd();
      this.forgetIfDone(s);
    }
  }

  private onFrame(h: F.FrameHeader, payload: Uint8Array): void {
    switch (h.type) {
      case F.DATA: {
        if (h.stream === 0) throw new ProtocolError("HTTP/2 DATA on stream 0");
        this.connRecvWindow -= h.length;
        if (this.connRecvWindow < 0) throw new ProtocolError("HTTP/2 peer overran the connection window");
        const data = F.framePayload(h.type, h.flags, payload);
        const s = this.streams.get(h.stream);
        if (!s || s.remoteEnded) {
          this.connConsumed(h.length);
          return;
        }
        s.recvWindow -= h.length;
        if (s.recvWindow < 0) {
          s.onError(new ProtocolError("HTTP/2 peer overran the stream window"));
          this.sendReset(s, F.ERR_FLOW_CONTROL);
          this.connConsumed(h.length);
          return;
        }
        // Padding is consumed at once; the data when the reader takes it.
        if (h.length > data.length) this.consumed(s, h.length - data.length);
        if (data.length) s.onData(data.slice());
        if (h.flags & F.FLAG_END_STREAM) {
          s.onEnd();
          this.forgetIfDone(s);
        }
        return;
      }
      case F.RST_STREAM: {
        if (h.length !== 4) throw new ProtocolError("HTTP/2 RST_STREAM length is not 4");
        const s = this.streams.get(h.stream);
        if (s) {
          this.streams.delete(h.stream);
          s.onError(new ProtocolError(`HTTP/2 stream reset by the peer (code ${F.readU32(payload, 0)})`));
        }
        return;
      }
      case F.SETTINGS:
        if (h.stream !== 0) throw new ProtocolError("HTTP/2 SETTINGS on a stream");
        if (h.flags & F.FLAG_ACK) return;
        for (const [id, v] of F.parseSettings(payload)) this.applySetting(id, v);
        this.queue(F.encodeFrame(F.SETTINGS, F.FLAG_ACK, 0, new Uint8Array(0))).catch(() => {});
        this.wakeWriters();
        return;
      case F.PING:
        if (h.length !== 8) throw new ProtocolError("HTTP/2 PING length is not 8");
        if (h.flags & F.FLAG_ACK) {
          clearTimeout(this.pingDeadline);
          this.pingDeadline = undefined;
        } else {
          this.queue(F.encodeFrame(F.PING, F.FLAG_ACK, 0, payload.slice())).catch(() => {});
        }
        return;
      case F.GOAWAY: {
        if (h.length < 8) throw new ProtocolError("HTTP/2 GOAWAY is too short");
        this.goaway = true;
        const last = F.readU32(payload, 0) & 0x7fffffff;
        for (const [id, s] of this.streams) {
          if (id > last && (id % 2 === 1) === this.opts.client) {
            this.streams.delete(id);
            s.onError(new ProtocolError("HTTP/2 connection is going away"));
          }
        }
        if (this.streams.size === 0) this.close();
        return;
      }
      case F.WINDOW_UPDATE: {
        if (h.length !== 4) throw new ProtocolError("HTTP/2 WINDOW_UPDATE length is not 4");
        const inc = F.readU32(payload, 0) & 0x7fffffff;
        if (h.stream === 0) {
          if (inc === 0) throw new ProtocolError("HTTP/2 WINDOW_UPDATE of 0");
          this.connSendWindow += inc;
          if (this.connSendWindow > F.MAX_WINDOW) {
            throw new ProtocolError("HTTP/2 connection window overflow");
          }
        } else {
          const s = this.streams.get(h.stream);
          if (s) {
            s.sendWindow += inc;
            if (inc === 0 || s.sendWindow > F.MAX_WINDOW) {
              s.onError(new ProtocolError("HTTP/2 bad stream WINDOW_UPDATE"));
              this.sendReset(s, F.ERR_FLOW_CONTROL);
            }
          }
        }
        this.wakeWriters();
        return;
      }
      case F.PUSH_PROMISE:
        throw new ProtocolError("HTTP/2 PUSH_PROMISE although push is disabled");
      default:
        return; // PRIORITY and unknown frame types are ignored (RFC 9113 5.5)
    }
  }

  private applySetting(id: number, v: number): void {
    switch (id) {
      case F.SETTINGS_HEADER_TABLE_SIZE:
        this.hpack.setEncoderTableSize(v);
        return;
      case F.SETTINGS_INITIAL_WINDOW_SIZE: {
        if (v > F.MAX_WINDOW) throw new ProtocolError("HTTP/2 initial window size is too large");
        const delta = v - this.peerInitialWindow;
        this.peerInitialWindow = v;
        for (const s of this.streams.values()) s.sendWindow += delta;
        return;
      }
      case F.SETTINGS_MAX_FRAME_SIZE:
        if (v < 16384 || v > 16777215) {
          throw new ProtocolError(`HTTP/2 max frame size "${v}" is out of range`);
        }
        this.peerMaxFrame = Math.min(v, 1024 * 1024);
        return;
      case F.SETTINGS_MAX_CONCURRENT_STREAMS:
        this.peerMaxStreams = v;
        return;
    }
  }

  // ---------------------------------------------------------------- health and shutdown

  private startHealthCheck(idleMs: number, pingMs: number): void {
    this.pingTimer = setInterval(() => {
      if (this.pingDeadline || Date.now() - this.lastRead < idleMs) return;
      this.queue(F.encodeFrame(F.PING, 0, 0, crypto.getRandomValues(new Uint8Array(8)))).catch(() => {});
      this.pingDeadline = setTimeout(
        () => this.fail(new ProtocolError(`HTTP/2 PING not answered within ${pingMs} ms`), false),
        pingMs,
      );
    }, Math.max(100, Math.min(idleMs, 5000)));
  }

  /** Ends the connection: GOAWAY (with `code`) when `protocolError`, every stream failed. */
  private fail(e: unknown, protocolError: boolean): void {
    if (this.closed) return;
    const err = e instanceof ProtocolError
      ? e
      : new ProtocolError(`HTTP/2 connection failed: ${errorText(e)}`);
    if (protocolError) {
      const p = new Uint8Array(8);
      F.writeU32(p, 0, this.lastPeerId);
      F.writeU32(p, 4, F.ERR_PROTOCOL);
      // Best effort, not through the queue: the connection closes right after.
      this.conn.write(F.encodeFrame(F.GOAWAY, 0, 0, p)).catch(() => {});
    }
    this.shutdown(err);
  }

  private shutdown(err: Error): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.pingDeadline);
    for (const s of this.streams.values()) s.onError(err);
    this.streams.clear();
    this.wakeWriters();
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }

  /** Sends GOAWAY (no error) and closes the connection. */
  close(): void {
    if (this.closed) return;
    const p = new Uint8Array(8);
    F.writeU32(p, 0, this.lastPeerId);
    const bye = this.queue(F.encodeFrame(F.GOAWAY, 0, 0, p)).catch(() => {});
    const timer = setTimeout(() => this.shutdown(new ProtocolError("HTTP/2 connection is closed")), 1000);
    bye.finally(() => {
      clearTimeout(timer);
      this.shutdown(new ProtocolError("HTTP/2 connection is closed"));
    });
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
