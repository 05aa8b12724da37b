/** The `socks` outbound: SOCKS4/4a/5 client with authentication and UDP ASSOCIATE (SOCKS5). */
import type {
  Address,
  ClientLayers,
  Conn,
  Dialer,
  Metadata,
  Network,
  Outbound,
  OutboundContext,
  Packet,
  PacketConn,
} from "../../adapter/mod.ts";
import { DialError } from "../../common/errors.ts";
import { isIpLiteral } from "../../adapter/mod.ts";
import { boundedOpen } from "../../transport/bounded_open.ts";
import { socksHandshake } from "./client.ts";
import { CMD_CONNECT, CMD_UDP_ASSOCIATE, decodeUdpDatagram, encodeUdpDatagram } from "./wire.ts";

export interface SocksOutboundOptions {
  tag: string;
  server: string;
  server_port: number;
  version: "4" | "4a" | "5";
  username?: string;
  password?: string;
  network?: Network[] | Network;
  detour?: string;
  /** TLS to the proxy (the `tls` block); UDP ASSOCIATE's datagrams stay plain UDP. */
  tls?: unknown;
  /** Bounds the TCP connect, TLS and the SOCKS handshake together (ms). */
  connect_timeout?: number;
}

export class SocksOutbound implements Outbound {
  readonly type = "socks";
  readonly tag: string;
  readonly networks: readonly Network[];
  readonly dependencies: readonly string[];
  private readonly dialer: Dialer;
  private readonly lookup: (name: string) => Promise<string[]>;
  private readonly layers: ClientLayers;

  constructor(private readonly options: SocksOutboundOptions, ctx: OutboundContext) {
    this.lookup = ctx.lookup;
    this.tag = options.tag;
    const n = options.network === undefined ? ["tcp", "udp"] : [options.network].flat();
    this.networks = (options.version === "5" ? n : n.filter((x) => x === "tcp")) as Network[];
    this.dependencies = options.detour ? [options.detour] : [];
    this.dialer = ctx.dialer;
    this.layers = ctx.clientLayers({ server: this.server, tls: options.tls });
  }

  /**
   * A stream to the proxy (through TLS when configured) with the SOCKS handshake for `cmd` done;
   * a server that stays silent fails the dial after `connect_timeout`.
   */
  private handshake(cmd: number, destination: Address, metadata: Metadata, signal?: AbortSignal) {
    return boundedOpen(
      this.layers,
      (s) => this.dialer.dial(this.server, metadata, s),
      (raw) => socksHandshake(raw, cmd, destination, this.options),
      (r) => r.conn.close(),
      { what: "SOCKS", server: this.server, timeoutMs: this.options.connect_timeout, signal },
    );
  }

  private get server(): Address {
    return { host: this.options.server, port: this.options.server_port };
  }

  async dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    if (this.options.version === "4" && !isIpLiteral(destination.host)) {
      // SOCKS4 carries only an IPv4 address: resolve here, as curl's socks4:// does.
      const [ip] = await this.lookup(destination.host);
      if (!ip) throw new DialError(`No IPv4 address for "${destination.host}" (SOCKS4 needs one)`);
      destination = { host: ip, port: destination.port };
    }
    return (await this.handshake(CMD_CONNECT, destination, metadata, signal)).conn;
  }

  async listenPacket(_destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn> {
    if (!this.networks.includes("udp")) throw new DialError(`Outbound "${this.tag}" does not carry UDP`);
    const control = await this.handshake(CMD_UDP_ASSOCIATE, { host: "0.0.0.0", port: 0 }, metadata, signal);
    // An unspecified relay address means "the address you reached me on".
    const relay = /^(0\.0\.0\.0|::)$/.test(control.bound.host)
      ? { host: this.options.server, port: control.bound.port }
      : control.bound;
    const udp = await this.dialer.listenPacket(relay, { ...metadata, destination: relay }, signal);
    return new SocksClientPacketConn(control.conn, udp, relay);
  }
}

/** Wraps packets in SOCKS5 UDP headers towards the relay; closing it ends the association. */
class SocksClientPacketConn implements PacketConn {
  private closed = false;
  constructor(
    private readonly control: Conn,
    private readonly udp: PacketConn,
    private readonly relay: Address,
  ) {
    (async () => {
      const sink = new Uint8Array(64);
      try {
        while ((await control.read(sink)) !== null) { /* keep-alive only */ }
      } catch { /* reset */ }
      this.close();
    })();
  }

  async readPacket(): Promise<Packet | null> {
    while (!this.closed) {
      const p = await this.udp.readPacket();
      if (!p) return null;
      try {
        const d = decodeUdpDatagram(p.data);
        return { data: d.payload, addr: d.addr };
      } catch {
        continue;
      }
    }
    return null;
  }

  writePacket(data: Uint8Array, addr: Address): Promise<void> {
    return this.udp.writePacket(encodeUdpDatagram(addr, data), this.relay);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.udp.close();
    this.control.close();
  }
}
