/** The `vmess` outbound: VMess AEAD over the item's TLS and transport layers; UDP plain, packetaddr or XUDP. */
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
import type { VmessOutboundModel } from "../../config/model/protocols/vmess.ts";
import {
  FixedPacketConn,
  MUX_COOL_HOST,
  PACKET_ADDR_MAGIC,
  PacketAddrConn,
  XudpClientConn,
} from "../../transport/xudp/mod.ts";
import { boundedOpen } from "../../transport/bounded_open.ts";
import { resolveSecurity, vmessClientConn, type VmessClientParams } from "./client.ts";
import { cmdKey, parseUuid } from "./kdf.ts";
import { CMD_MUX, CMD_TCP, CMD_UDP } from "./wire.ts";

export class VmessOutbound implements Outbound {
  readonly type = "vmess";
  readonly tag: string;
  readonly networks: readonly Network[];
  readonly dependencies: readonly string[];
  private readonly dialer: Dialer;
  private readonly layers: ClientLayers;
  private readonly server: Address;
  private readonly params: VmessClientParams;

  constructor(private readonly o: VmessOutboundModel, ctx: OutboundContext, path = "") {
    this.tag = o.tag;
    if (o.alter_id > 0) {
      throw new ConfigError(
        `${path}/alter_id`,
        `alter_id ${o.alter_id} (legacy MD5 authentication) is not supported: use 0 (AEAD)`,
      );
    }
    try {
      resolveSecurity(o.security);
    } catch (e) {
      throw new ConfigError(`${path}/security`, (e as Error).message);
    }
    this.params = {
      cmdKey: cmdKey(parseUuid(o.uuid, `${path}/uuid`)),
      security: o.security,
      globalPadding: o.global_padding ?? false,
      authenticatedLength: o.authenticated_length ?? false,
    };
    this.networks = o.network ? [o.network] : ["tcp", "udp"];
    this.dependencies = o.detour ? [o.detour] : [];
    this.dialer = ctx.dialer;
    this.server = { host: o.server, port: o.server_port };
    this.layers = ctx.clientLayers({ server: this.server, tls: o.tls, transport: o.transport, path });
  }

  private async open(command: number, destination: Address, metadata: Metadata, signal?: AbortSignal) {
    // TCP, TLS and the transport's handshake get `connect_timeout`; VMess itself has no server
    // reply before data, so that is all that can be bounded here.
    return await boundedOpen(
      this.layers,
      (s) => this.dialer.dial(this.server, { ...metadata, network: "tcp" }, s),
      (raw) => Promise.resolve(vmessClientConn(raw, this.params, command, destination)),
      (c) => c.close(),
      { what: "VMess", server: this.server, timeoutMs: this.o.connect_timeout, signal },
    );
  }

  async dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    if (!this.networks.includes("tcp")) throw new DialError(`Outbound "${this.tag}" does not carry TCP`);
    return await this.open(CMD_TCP, destination, metadata, signal);
  }

  async listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn> {
    if (!this.networks.includes("udp")) throw new DialError(`Outbound "${this.tag}" does not carry UDP`);
    switch (this.o.packet_encoding ?? "") {
      case "xudp":
        return new XudpClientConn(
          await this.open(CMD_MUX, { host: MUX_COOL_HOST, port: 0 }, metadata, signal),
          destination,
        );
      case "packetaddr":
        return new PacketAddrConn(
          await this.open(CMD_UDP, { host: PACKET_ADDR_MAGIC, port: 0 }, metadata, signal),
        );
      default:
        return new FixedPacketConn(await this.open(CMD_UDP, destination, metadata, signal), destination);
    }
  }

  close(): Promise<void> {
    this.layers.close();
    return Promise.resolve();
  }
}
