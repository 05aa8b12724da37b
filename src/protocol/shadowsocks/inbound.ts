/**
 * The `shadowsocks` inbound: TCP streams and UDP packets on one port, users in one swappable
 * table. A request that fails authentication (wrong key, replayed salt, bad timestamp, garbage)
 * gets no answer: the connection is read and discarded for a while before it is closed, so a
 * probe learns nothing from an immediate reset or from how many bytes made it give up. The drain
 * is bounded (DRAIN_MS plus jitter, DRAIN_BYTES plus jitter), so a flood costs little and the
 * connection does close, as the issue asks of bad input.
 */
import type { Address, Conn, Inbound, InboundContext, Network, UsersReloadable } from "../../adapter/mod.ts";
import { errorText, ProtocolError } from "../../common/errors.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import { StreamInbound } from "../../net/stream_inbound.ts";
import { type Method, methodOf } from "./method.ts";
import { SaltFilter } from "./salt_filter.ts";
import { serverHandshake } from "./server.ts";
import { ShadowsocksUdpServer } from "./udp_server.ts";
import { buildUserTable, type UserTable } from "./users.ts";

/** How long and how much a rejected connection is drained before it is closed (each with jitter). */
const DRAIN_MS = 1000;
const DRAIN_JITTER_MS = 1000;
const DRAIN_BYTES = 32 * 1024;
const DRAIN_JITTER_BYTES = 32 * 1024;

export interface ShadowsocksInboundOptions {
  tag: string;
  listen: string;
  listen_port?: number;
  udp_timeout: number;
  network?: Network[];
  method: string;
  password?: string;
  users?: { name?: string; password: string }[];
  destinations?: unknown[];
  managed?: boolean;
  /** Injected clock (tests). */
  now?: () => number;
}

export class ShadowsocksInbound implements Inbound, UsersReloadable {
  readonly type = "shadowsocks";
  readonly tag: string;
  private readonly method: Method;
  private table: UserTable;
  private readonly salts = new SaltFilter();
  private tcp?: StreamInbound;
  private udp?: ShadowsocksUdpServer;

  constructor(private readonly o: ShadowsocksInboundOptions, private readonly ctx: InboundContext) {
    this.tag = o.tag;
    this.method = methodOf(o.method);
    if (o.destinations?.length) throw new Error("destinations: shadowsocks relay mode is not implemented");
    if (o.managed) throw new Error("managed: shadowsocks managed mode is not implemented");
    this.table = buildUserTable(this.method, o.password, o.users);
  }

  replaceUsers(users: readonly unknown[]): void {
    this.table = buildUserTable(this.method, this.o.password, users as { name?: string; password: string }[]);
  }

  currentUsers(): readonly unknown[] {
    return this.table.source;
  }

  /** Where it listens once started. */
  get address(): Deno.NetAddr | undefined {
    return this.tcp?.address ?? this.udp?.addr;
  }

  async start(): Promise<void> {
    const o = this.o;
    if (o.listen_port === undefined) return;
    const networks = o.network ?? ["tcp", "udp"];
    if (networks.includes("tcp")) {
      this.tcp = new StreamInbound(
        this.type,
        this.tag,
        o,
        this.ctx.logger,
        (conn, source) => this.serve(conn, source),
        this.ctx.serverLayers({}),
      );
      await this.tcp.start();
    }
    if (networks.includes("udp")) {
      this.udp = new ShadowsocksUdpServer({
        method: this.method,
        users: () => this.table,
        now: o.now,
        logger: this.ctx.logger,
        onSession: (session, client, user) =>
          this.ctx.handler.routePacketConnection(session, {
            inbound: this.tag,
            inboundType: this.type,
            network: "udp",
            source: client,
            destination: { host: "0.0.0.0", port: 0 },
            user,
            udpTimeoutMs: o.udp_timeout,
          }),
      });
      this.udp.listen(o.listen, this.tcp?.address?.port ?? o.listen_port);
    }
  }

  private async serve(conn: Conn, source: Address): Promise<void> {
    const deadline = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
    let accepted;
    try {
      accepted = await serverHandshake(conn, {
        method: this.method,
        users: () => this.table,
        salts: this.salts,
        now: this.o.now,
      });
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      this.ctx.logger.debug(`rejected ${source.host}:${source.port}: ${errorText(e)}`);
      deadline.clear();
      await drainBriefly(conn);
      return;
    }
    deadline.clear();
    await this.ctx.handler.routeConnection(accepted.conn, {
      inbound: this.tag,
      inboundType: this.type,
      network: "tcp",
      source,
      destination: accepted.destination,
      user: accepted.user,
    });
  }

  async close(): Promise<void> {
    await this.tcp?.close();
    await this.udp?.close();
  }
}

export function createShadowsocksInbound(o: ShadowsocksInboundOptions, ctx: InboundContext): Inbound {
  return new ShadowsocksInbound(o, ctx);
}

/** Reads and drops until the client closes, or a jittered time or byte budget runs out; then closes. */
async function drainBriefly(conn: Conn): Promise<void> {
  const budget = DRAIN_BYTES + Math.floor(Math.random() * DRAIN_JITTER_BYTES);
  const timer = setTimeout(() => conn.close(), DRAIN_MS + Math.random() * DRAIN_JITTER_MS);
  const sink = new Uint8Array(16 * 1024);
  let seen = 0;
  try {
    let n: number | null;
    while (seen < budget && (n = await conn.read(sink)) !== null) seen += n;
  } catch {
    /* closed by the timer or reset */
  } finally {
    clearTimeout(timer);
    conn.close();
  }
}
