/**
 * Trojan UDP: datagrams as frames (address, length, CRLF, payload) over one stream, used the same
 * way by the outbound (client side) and the inbound (server side).
 */
import type { Address, Conn, Packet, PacketConn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { writeAll } from "../../net/relay.ts";
import { decodeUdpFrame, encodeUdpFrame, MAX_UDP_PAYLOAD } from "./wire.ts";

/** Room for the largest frame: payload plus the longest address (a 255-byte name) and framing. */
const MAX_FRAME = MAX_UDP_PAYLOAD + 4 + 255 + 2 + 4;

export class TrojanPacketConn implements PacketConn {
  private readonly conn: BufferedConn;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(stream: Conn) {
    this.conn = stream instanceof BufferedConn ? stream : new BufferedConn(stream, undefined, 4096);
  }

  /** The next datagram; null at end of stream. A malformed frame throws and closes the stream. */
  async readPacket(): Promise<Packet | null> {
    try {
      while (!this.closed) {
        const frame = decodeUdpFrame(this.conn.buffered());
        if (frame) {
          const data = frame.payload.slice();
          this.conn.consume(frame.next);
          return { data, addr: frame.addr };
        }
        if (!(await this.conn.fill(MAX_FRAME))) return null;
      }
      return null;
    } catch (e) {
      const wasClosed = this.closed;
      this.close();
      // A read cut short by close() is a normal end; a malformed frame is reported.
      if (wasClosed || !(e instanceof ProtocolError)) return null;
      throw e;
    }
  }

  /** Frames are written one at a time so concurrent writers never interleave bytes. */
  writePacket(data: Uint8Array, addr: Address): Promise<void> {
    const frame = encodeUdpFrame(addr, data);
    const done = this.writing.then(() => writeAll(this.conn, frame));
    this.writing = done.catch(() => {});
    return done;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.close();
  }
}
