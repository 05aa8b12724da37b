/**
 * A UDP session to many destinations (direct outbound, relays): one socket per address family,
 * opened on first use; domain destinations are resolved once per session and remembered so that
 * answers are reported with the name the client used.
 */
import type { Address, Packet, PacketConn } from "../adapter/mod.ts";
import { isIpLiteral } from "../adapter/mod.ts";
import { PacketQueue } from "../common/packet_queue.ts";
import type { DomainStrategy, Resolver } from "./resolver.ts";

export interface UdpOptions {
  resolver: Resolver;
  domainStrategy?: DomainStrategy;
  /** The DNS server `domain_resolver` names, asked directly. */
  resolverServer?: string;
  bind4?: string;
  bind6?: string;
}

export class UdpPacketConn implements PacketConn {
  private v4?: Deno.DatagramConn;
  private v6?: Deno.DatagramConn;
  private readonly queue = new PacketQueue<Packet>();
  private readonly resolved = new Map<string, string>();
  /** address → the domain the client sent to, so replies carry the name (as sing-box's NAT does). */
  private readonly reverse = new Map<string, string>();

  constructor(private readonly opts: UdpOptions) {}

  private socket(v6: boolean): Deno.DatagramConn {
    let s = v6 ? this.v6 : this.v4;
    if (s) return s;
    s = Deno.listenDatagram({
      transport: "udp",
      hostname: v6 ? (this.opts.bind6 ?? "::") : (this.opts.bind4 ?? "0.0.0.0"),
      port: 0,
    });
    if (v6) this.v6 = s;
    else this.v4 = s;
    this.pumpFrom(s);
    return s;
  }

  private async pumpFrom(s: Deno.DatagramConn): Promise<void> {
    try {
      while (!this.queue.closed) {
        const [data, addr] = await s.receive();
        const a = addr as Deno.NetAddr;
        const host = this.reverse.get(`${a.hostname}|${a.port}`) ?? a.hostname;
        this.queue.push({ data, addr: { host, port: a.port } });
      }
    } catch {
      this.queue.close();
    }
  }

  readPacket(): Promise<Packet | null> {
    return this.queue.shift();
  }

  async writePacket(data: Uint8Array, addr: Address): Promise<void> {
    let ip = addr.host;
    if (!isIpLiteral(ip)) {
      let r = this.resolved.get(ip);
      if (!r) {
        r = (await this.opts.resolver.lookup(ip, this.opts.domainStrategy, this.opts.resolverServer))[0];
        this.resolved.set(addr.host, r);
      }
      this.reverse.set(`${r}|${addr.port}`, addr.host);
      ip = r;
    }
    if (ip.startsWith("::ffff:") && ip.includes(".")) ip = ip.slice(7);
    await this.socket(ip.includes(":")).send(data, { transport: "udp", hostname: ip, port: addr.port });
  }

  close(): void {
    if (this.queue.closed) return;
    this.queue.close();
    for (const s of [this.v4, this.v6]) {
      try {
        s?.close();
      } catch { /* already closed */ }
    }
  }
}
