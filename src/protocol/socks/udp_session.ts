/**
 * The client side of one SOCKS5 UDP association as a PacketConn: datagrams from the client are
 * unwrapped to (destination, payload); answers are wrapped and sent back to the client.
 * Only packets from the control stream's client address are accepted.
 */
import type { Address, Packet, PacketConn } from "../../adapter/mod.ts";
import { decodeUdpDatagram, encodeUdpDatagram } from "./wire.ts";

export class SocksUdpSession implements PacketConn {
  private readonly socket: Deno.DatagramConn;
  private client?: Deno.NetAddr;
  private closed = false;

  constructor(listenHost: string, private readonly clientHost: string, readonly idleTimeoutMs: number) {
    this.socket = Deno.listenDatagram({ transport: "udp", hostname: listenHost, port: 0 });
  }

  get port(): number {
    return (this.socket.addr as Deno.NetAddr).port;
  }

  async readPacket(): Promise<Packet | null> {
    while (!this.closed) {
      let data: Uint8Array, addr: Deno.Addr;
      try {
        [data, addr] = await this.socket.receive();
      } catch {
        return null;
      }
      const from = addr as Deno.NetAddr;
      if (!sameHost(from.hostname, this.clientHost)) continue;
      try {
        const d = decodeUdpDatagram(data);
        this.client = from;
        return { data: d.payload, addr: d.addr };
      } catch {
        continue; // malformed or fragmented: dropped, as UDP allows
      }
    }
    return null;
  }

  async writePacket(data: Uint8Array, addr: Address): Promise<void> {
    if (!this.client || this.closed) return;
    await this.socket.send(encodeUdpDatagram(addr, data), this.client);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.socket.close();
    } catch { /* already closed */ }
  }
}

function sameHost(a: string, b: string): boolean {
  const norm = (h: string) => (h.startsWith("::ffff:") ? h.slice(7) : h);
  return norm(a) === norm(b);
}
