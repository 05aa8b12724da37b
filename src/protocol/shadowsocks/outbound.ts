/** The `shadowsocks` outbound: TCP streams and UDP packets to a shadowsocks server, optional SIP003 plugin. */
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
import { DialError } from "../../common/errors.ts";
import { clientConn } from "./client.ts";
import { type Method, methodOf, passwordKeys } from "./method.ts";
import { PLUGIN_BINARIES, Sip003Plugin } from "./plugin.ts";
import { ShadowsocksPacketConn } from "./udp_client.ts";

export interface ShadowsocksOutboundOptions {
  tag: string;
  server: string;
  server_port: number;
  method: string;
  password: string;
  plugin?: string;
  plugin_opts?: string;
  network?: Network;
  detour?: string;
  /** Injected clock (tests). */
  now?: () => number;
}

export class ShadowsocksOutbound implements Outbound {
  readonly type = "shadowsocks";
  readonly tag: string;
  readonly networks: readonly Network[];
  readonly dependencies: readonly string[];
  private readonly method: Method;
  private readonly keys: Uint8Array[];
  private readonly dialer: Dialer;
  private readonly layers: ClientLayers;
  private readonly plugin?: Sip003Plugin;
  private readonly server: Address;

  constructor(private readonly o: ShadowsocksOutboundOptions, ctx: OutboundContext) {
    this.tag = o.tag;
    this.method = methodOf(o.method);
    try {
      this.keys = passwordKeys(this.method, o.password);
    } catch (e) {
      throw new Error(`password: ${(e as Error).message}`);
    }
    this.networks = o.network ? [o.network] : ["tcp", "udp"];
    this.dependencies = o.detour ? [o.detour] : [];
    this.dialer = ctx.dialer;
    this.server = { host: o.server, port: o.server_port };
    this.layers = ctx.clientLayers({ server: this.server });
    if (o.plugin) {
      if (!(o.plugin in PLUGIN_BINARIES)) {
        throw new Error(
          `plugin: unsupported plugin "${o.plugin}": expected one of ${
            Object.keys(PLUGIN_BINARIES).join(", ")
          }`,
        );
      }
      if (o.detour) {
        // The plugin process opens its own connection to the server: it cannot go through a detour.
        throw new Error(
          `plugin: "${o.plugin}" runs as its own process and connects to the server itself, so it cannot be combined with "detour"`,
        );
      }
      this.plugin = new Sip003Plugin(o.plugin, o.plugin_opts ?? "", this.server, ctx.logger);
    }
  }

  async start(): Promise<void> {
    await this.plugin?.start();
  }

  async close(): Promise<void> {
    this.layers.close();
    await this.plugin?.close();
  }

  async dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    if (!this.networks.includes("tcp")) throw new DialError(`Outbound "${this.tag}" does not carry TCP`);
    const target = this.plugin ? await this.plugin.start() : this.server;
    const raw = await this.layers.open((s) => this.dialer.dial(target, metadata, s), signal);
    return clientConn(raw, destination, { method: this.method, keys: this.keys, now: this.o.now });
  }

  async listenPacket(_destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn> {
    if (!this.networks.includes("udp")) throw new DialError(`Outbound "${this.tag}" does not carry UDP`);
    // SIP003 plugins carry TCP only: UDP goes to the server directly, as ss-libev and sing-box do.
    const inner = await this.dialer.listenPacket(
      this.server,
      { ...metadata, destination: this.server },
      signal,
    );
    return new ShadowsocksPacketConn(inner, this.server, this.method, this.keys, this.o.now);
  }
}
