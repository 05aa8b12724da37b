/** The `vless` outbound: VLESS over the item's TLS and transport layers; UDP as XUDP (default), plain or packetaddr. */
import type {
  Address,
  ClientLayers,
  Conn,
  Dialer,
  Metadata,
  Network,
  Outbound,
  OutboundContext,
  PacketConn,
} from "../../adapter/mod.ts";
import { ConfigError, DialError } from "../../common/errors.ts";
import type { VlessOutboundModel } from "../../config/model/protocols/vless.ts";
import {
  FixedPacketConn,
  LengthPacketStream,
  PACKET_ADDR_MAGIC,
  PacketAddrConn,
  XudpClientConn,
} from "../../transport/xudp/mod.ts";
import { boundedOpen } from "../../transport/bounded_open.ts";
import { VlessConn } from "./conn.ts";
import { parseUuid } from "./users.ts";
import { CMD_MUX, CMD_TCP, CMD_UDP, encodeRequest } from "./wire.ts";

export class VlessOutbound implements Outbound {
  readonly type = "vless";
  readonly tag: string;
  readonly networks: readonly Network[];
  readonly dependencies: readonly string[];
  private readonly dialer: Dialer;
  private readonly layers: ClientLayers;
  private readonly server: Address;
  private readonly uuid: Uint8Array;

  constructor(private readonly o: VlessOutboundModel, ctx: OutboundContext, path = "") {
    this.tag = o.tag;
    if (o.flow) {
      throw new ConfigError(
        `${path}/flow`,
        `flow "${o.flow}" is not supported yet (xtls-rprx-vision comes with the advanced-TLS work)`,
      );
    }
    this.uuid = parseUuid(o.uuid, `${path}/uuid`);
    this.networks = o.network ? [o.network] : ["tcp", "udp"];
    this.dependencies = o.detour ? [o.detour] : [];
    this.dialer = ctx.dialer;
    this.server = { host: o.server, port: o.server_port };
    this.layers = ctx.clientLayers({ server: this.server, tls: o.tls, transport: o.transport, path });
  }

  private async open(
    command: number,
    destination: Address | undefined,
    metadata: Metadata,
    signal?: AbortSignal,
  ) {
    // The request rides on the first write; what can stall is TCP, TLS and the transport's
    // handshake, bounded by `connect_timeout` so a silent server fails the dial.
    return await boundedOpen(
      this.layers,
      (s) => this.dialer.dial(this.server, { ...metadata, network: "tcp" }, s),
      (raw) => Promise.resolve(new VlessConn(raw, encodeRequest(this.uuid, command, destination), true)),
      (c) => c.close(),
      { what: "VLESS", server: this.server, timeoutMs: this.o.connect_timeout, signal },
    );
  }

  async dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    if (!this.networks.includes("tcp")) throw new DialError(`Outbound "${this.tag}" does not carry TCP`);
    return await this.open(CMD_TCP, destination, metadata, signal);
  }

  async listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn> {
    if (!this.networks.includes("udp")) throw new DialError(`Outbound "${this.tag}" does not carry UDP`);
    switch (this.o.packet_encoding ?? "xudp") {
      case "xudp":
        return new XudpClientConn(await this.open(CMD_MUX, undefined, metadata, signal), destination);
      case "packetaddr":
        return new PacketAddrConn(
          new LengthPacketStream(
            await this.open(CMD_UDP, { host: PACKET_ADDR_MAGIC, port: 0 }, metadata, signal),
          ),
        );
      default:
        return new FixedPacketConn(
          new LengthPacketStream(await this.open(CMD_UDP, destination, metadata, signal)),
          destination,
        );
    }
  }

  close(): Promise<void> {
    this.layers.close();
    return Promise.resolve();
  }
}
