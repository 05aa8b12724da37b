/**
 * The `trojan` outbound: one TLS stream per connection, the request header written first, then
 * the stream itself is the connection (no framing on TCP, so the relay runs on the TLS socket).
 * UDP travels as length-prefixed frames over one stream per session (udp_stream.ts).
 */
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
import { DialError, errorText } from "../../common/errors.ts";
import type { TrojanOutboundModel } from "../../config/model/protocols/trojan.ts";
import { withTimeout } from "../../net/dialer.ts";
import { closeQuietly, writeAll } from "../../net/relay.ts";
import { joinHostPort } from "../../common/address.ts";
import { TrojanPacketConn } from "./udp_stream.ts";
import { CMD_CONNECT, CMD_UDP_ASSOCIATE, encodeRequest, passwordKey } from "./wire.ts";

/** The dialer's own default connect timeout: TCP and TLS handshakes share it. */
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5000;

export class TrojanOutbound implements Outbound {
  readonly type = "trojan";
  readonly tag: string;
  readonly networks: readonly Network[];
  readonly dependencies: readonly string[];
  private readonly dialer: Dialer;
  private readonly layers: ClientLayers;
  private readonly server: Address;
  private readonly key: string;
  private readonly handshakeTimeoutMs: number;

  constructor(o: TrojanOutboundModel, ctx: OutboundContext) {
    this.tag = o.tag;
    this.networks = o.network ? [o.network] : ["tcp", "udp"];
    this.dependencies = o.detour ? [o.detour] : [];
    this.dialer = ctx.dialer;
    this.server = { host: o.server, port: o.server_port };
    this.layers = ctx.clientLayers({ server: this.server, tls: o.tls, transport: o.transport });
    this.key = passwordKey(o.password);
    this.handshakeTimeoutMs = o.connect_timeout ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  }

  private async open(cmd: number, destination: Address, metadata: Metadata, signal?: AbortSignal) {
    // A server that accepts TCP and then stalls must not hang the dial: the TCP connect and the
    // TLS (and transport) handshake together get `connect_timeout`. On timeout the socket is
    // closed where that is still possible, and a handshake that completes late is closed.
    const sockets: Conn[] = [];
    const opened = this.layers.open(async (s) => {
      const raw = await this.dialer.dial(this.server, metadata, s);
      sockets.push(raw);
      return raw;
    }, signal);
    let conn: Conn;
    try {
      conn = await withTimeout(opened, this.handshakeTimeoutMs, signal, (c) => c.close());
    } catch (e) {
      sockets.forEach(closeQuietly);
      if (sockets.length === 0) throw e;
      throw new DialError(
        `Trojan server ${joinHostPort(this.server.host, this.server.port)}: ${errorText(e)}`,
      );
    }
    try {
      // The header goes in its own write: trojan-gfw decides from the first record it reads,
      // and the header must be whole in it.
      await writeAll(conn, encodeRequest(this.key, cmd, destination));
      return conn;
    } catch (e) {
      conn.close();
      throw e;
    }
  }

  async dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    if (!this.networks.includes("tcp")) throw new DialError(`Outbound "${this.tag}" does not carry TCP`);
    return await this.open(CMD_CONNECT, destination, metadata, signal);
  }

  async listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn> {
    if (!this.networks.includes("udp")) throw new DialError(`Outbound "${this.tag}" does not carry UDP`);
    return new TrojanPacketConn(await this.open(CMD_UDP_ASSOCIATE, destination, metadata, signal));
  }

  close(): Promise<void> {
    this.layers.close();
    return Promise.resolve();
  }
}
