/**
 * Datagrams carried inside a proxy stream. A PacketStream is a channel of bare datagrams (a VMess
 * UDP request keeps one datagram per chunk; VLESS UDP prefixes each with a 2-byte length). The
 * PacketConns here give them addresses: a fixed destination (plain UDP requests) or one address
 * per datagram (sing's packetaddr).
 */
import type { Address, Conn, Packet, PacketConn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { packetAddress } from "./address.ts";

export interface PacketStream {
  /** The next datagram (valid until the next call), or null at end of stream. */
  readPacket(): Promise<Uint8Array | null>;
  writePacket(data: Uint8Array): Promise<void>;
  close(): void;
}

/** VLESS UDP framing: 2-byte big-endian length, then the datagram. */
export class LengthPacketStream implements PacketStream {
  private readonly in: BufferedConn;
  private out = new Uint8Array(2048);

  constructor(private readonly conn: Conn) {
    this.in = conn instanceof BufferedConn ? conn : new BufferedConn(conn);
  }

  async readPacket(): Promise<Uint8Array | null> {
    if (this.in.buffered().length === 0 && !(await this.in.fill(70_000))) return null;
    const head = await this.in.need(2, 70_000);
    const n = (head[0] << 8) | head[1];
    const b = await this.in.need(2 + n, 70_000);
    const data = b.slice(2, 2 + n);
    this.in.consume(2 + n);
    return data;
  }

  async writePacket(data: Uint8Array): Promise<void> {
    if (data.length > 0xffff) throw new ProtocolError(`Datagram of ${data.length} bytes is too large`);
    if (this.out.length < data.length + 2) this.out = new Uint8Array(data.length + 2);
    this.out[0] = data.length >> 8;
    this.out[1] = data.length & 255;
    this.out.set(data, 2);
    const frame = this.out.subarray(0, data.length + 2);
    let off = 0;
    while (off < frame.length) off += await this.conn.write(frame.subarray(off));
  }

  close(): void {
    this.in.close();
  }
}

/** Every datagram goes to (client) or comes from (server) one address fixed by the request. */
export class FixedPacketConn implements PacketConn {
  constructor(private readonly stream: PacketStream, private readonly destination: Address) {}

  async readPacket(): Promise<Packet | null> {
    const data = await this.stream.readPacket().catch(() => null);
    return data && { data, addr: this.destination };
  }

  writePacket(data: Uint8Array, _addr: Address): Promise<void> {
    return this.stream.writePacket(data);
  }

  close(): void {
    this.stream.close();
  }
}

/** sing's packetaddr: each datagram starts with its address (IPv4/IPv6 then port). */
export class PacketAddrConn implements PacketConn {
  private out = new Uint8Array(2048);

  constructor(private readonly stream: PacketStream) {}

  async readPacket(): Promise<Packet | null> {
    while (true) {
      const data = await this.stream.readPacket().catch(() => null);
      if (!data) return null;
      const got = packetAddress.decode(data, 0);
      if (!got) throw new ProtocolError("Truncated packetaddr datagram");
      return { data: data.subarray(got.next), addr: got.addr };
    }
  }

  writePacket(data: Uint8Array, addr: Address): Promise<void> {
    const head = packetAddress.length(addr);
    if (this.out.length < head + data.length) this.out = new Uint8Array(head + data.length);
    packetAddress.encode(addr, this.out, 0);
    this.out.set(data, head);
    return this.stream.writePacket(this.out.subarray(0, head + data.length));
  }

  close(): void {
    this.stream.close();
  }
}

/** The magic destination sing-box's VMess client asks for when it speaks packetaddr. */
export const PACKET_ADDR_MAGIC = "sp.packet-addr.v2fly.arpa";
