/**
 * XUDP over a proxy stream (VLESS/VMess requests with the mux command): every datagram is one
 * mux.cool frame on session 0 that names its address, so one stream carries packets to and from
 * many destinations (full cone). The client opens with a New frame, then sends Keep frames; the
 * server answers with Keep frames that name the source.
 */
import type { Address, Conn, Packet, PacketConn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import {
  decodeFrame,
  encodeUdpFrameHeader,
  MAX_FRAME_HEADER,
  NETWORK_UDP,
  OPTION_ERROR,
  STATUS_END,
  STATUS_KEEP,
  STATUS_KEEP_ALIVE,
  STATUS_NEW,
} from "./frame.ts";

/** The destination a stream request names when it carries mux.cool frames. */
export const MUX_COOL_HOST = "v1.mux.cool";

const MAX_FRAME = 2 + 512 + 2 + 0xffff;

abstract class XudpPacketConn implements PacketConn {
  protected readonly in: BufferedConn;
  private out = new Uint8Array(4096);
  private closed = false;

  constructor(protected readonly conn: Conn, protected destination: Address | undefined) {
    this.in = conn instanceof BufferedConn ? conn : new BufferedConn(conn);
  }

  /** Frame status for the next datagram written. */
  protected abstract nextStatus(): number;
  /** Checks a frame read from the peer; false to skip it. */
  protected abstract accept(status: number): boolean;

  async readPacket(): Promise<Packet | null> {
    try {
      while (!this.closed) {
        let f = decodeFrame(this.in.buffered());
        while (!f) {
          if (this.in.buffered().length === 0 && this.in.atEof) return null;
          if (!(await this.in.fill(MAX_FRAME))) {
            if (this.in.buffered().length === 0) return null;
            throw new ProtocolError("Truncated mux.cool frame");
          }
          f = decodeFrame(this.in.buffered());
        }
        this.in.consume(f.length);
        if (f.status === STATUS_END || f.option & OPTION_ERROR) return null;
        if (f.status === STATUS_KEEP_ALIVE || !this.accept(f.status) || !f.data) continue;
        if (f.network !== undefined && f.network !== NETWORK_UDP) {
          throw new ProtocolError(`mux.cool network ${f.network} is not supported (only XUDP)`);
        }
        if (f.addr) this.destination ??= f.addr;
        const addr = f.addr ?? this.destination;
        if (!addr) throw new ProtocolError("XUDP frame without an address");
        return { data: f.data.slice(), addr };
      }
      return null;
    } catch (e) {
      this.close();
      throw e;
    }
  }

  async writePacket(data: Uint8Array, addr: Address): Promise<void> {
    if (data.length > 0xffff) throw new ProtocolError(`Datagram of ${data.length} bytes is too large`);
    const need = MAX_FRAME_HEADER + data.length;
    if (this.out.length < need) this.out = new Uint8Array(need);
    const status = this.nextStatus();
    const head = encodeUdpFrameHeader(this.out, status, addr, data.length);
    this.out.set(data, head);
    const frame = this.out.subarray(0, head + data.length);
    let off = 0;
    while (off < frame.length) off += await this.conn.write(frame.subarray(off));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.in.close();
  }
}

/** Client side: the first datagram opens session 0 with a New frame. */
export class XudpClientConn extends XudpPacketConn {
  private opened = false;

  constructor(conn: Conn, destination: Address) {
    super(conn, destination);
  }

  protected nextStatus(): number {
    if (this.opened) return STATUS_KEEP;
    this.opened = true;
    return STATUS_NEW;
  }

  protected accept(status: number): boolean {
    if (status === STATUS_NEW) throw new ProtocolError("Unexpected mux.cool New frame from the server");
    return true;
  }
}

/** Server side: reads the client's New and Keep frames; answers with Keep frames naming the source. */
export class XudpServerConn extends XudpPacketConn {
  constructor(conn: Conn) {
    super(conn, undefined);
  }

  protected nextStatus(): number {
    return STATUS_KEEP;
  }

  protected accept(_status: number): boolean {
    return true;
  }
}
