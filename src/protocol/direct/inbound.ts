/**
 * The `direct` inbound: accepts plain TCP and UDP and sends it on to `override_address` /
 * `override_port` (a port forward), through the router like any other inbound.
 */
import type { Address, Inbound, InboundContext, Network } from "../../adapter/mod.ts";
import { serveTcp, type TcpServer } from "../../net/tcp_server.ts";
import { serveUdp, type UdpServer } from "../../net/udp_server.ts";

export interface DirectInboundOptions {
  tag: string;
  listen: string;
  listen_port?: number;
  udp_timeout: number;
  network?: Network | Network[];
  override_address?: string;
  override_port?: number;
}

export class DirectInbound implements Inbound {
  readonly type = "direct";
  readonly tag: string;
  private tcp?: TcpServer;
  private udp?: UdpServer;

  constructor(private readonly options: DirectInboundOptions, private readonly ctx: InboundContext) {
    this.tag = options.tag;
  }

  /** Where it listens once started (TCP, and UDP on the same port). */
  get address(): Deno.NetAddr | undefined {
    return this.tcp?.addr ?? this.udp?.addr;
  }

  private target(local: Address): Address {
    return {
      host: this.options.override_address ?? local.host,
      port: this.options.override_port ?? local.port,
    };
  }

  start(): Promise<void> {
    const o = this.options;
    if (o.listen_port === undefined) return Promise.resolve();
    const networks = o.network === undefined ? ["tcp", "udp"] : [o.network].flat();
    const base = { inbound: this.tag, inboundType: this.type };
    if (networks.includes("tcp")) {
      this.tcp = serveTcp(
        o.listen,
        o.listen_port,
        this.ctx.logger,
        (conn, remote, local) =>
          this.ctx.handler.routeConnection(conn, {
            ...base,
            network: "tcp",
            source: { host: remote.hostname, port: remote.port },
            destination: this.target({ host: local.hostname, port: local.port }),
          }),
      );
    }
    if (networks.includes("udp")) {
      const port = this.tcp?.addr.port ?? o.listen_port;
      this.udp = serveUdp(
        o.listen,
        port,
        this.ctx.logger,
        () => this.target({ host: o.listen, port }),
        (s, client) =>
          this.ctx.handler.routePacketConnection(s, {
            ...base,
            network: "udp",
            source: client,
            destination: this.target({ host: o.listen, port }),
            udpTimeoutMs: o.udp_timeout,
          }),
      );
    }
    this.ctx.logger.info(
      `listening on ${o.listen}:${this.tcp?.addr.port ?? this.udp?.addr.port} (${networks.join(", ")})`,
    );
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.tcp?.close();
    await this.udp?.close();
  }
}
