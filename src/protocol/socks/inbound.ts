/** The `socks` inbound: SOCKS4/4a/5 with optional username/password and UDP ASSOCIATE. */
import type { Inbound, InboundContext } from "../../adapter/mod.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { StreamInbound } from "../../net/stream_inbound.ts";
import { serveSocks } from "./server.ts";

export interface ProxyInboundOptions {
  tag: string;
  listen: string;
  listen_port?: number;
  udp_timeout: number;
  users?: { username: string; password: string }[];
  /** The `tls` block (socks and http only; mixed has none). */
  tls?: unknown;
}

export function usersMap(users: ProxyInboundOptions["users"]): Map<string, string> {
  return new Map((users ?? []).map((u) => [u.username, u.password]));
}

export function createSocksInbound(o: ProxyInboundOptions, ctx: InboundContext): Inbound {
  const opts = {
    inbound: o.tag,
    inboundType: "socks",
    users: usersMap(o.users),
    handler: ctx.handler,
    logger: ctx.logger,
    udpTimeoutMs: o.udp_timeout,
  };
  return new StreamInbound(
    "socks",
    o.tag,
    o,
    ctx.logger,
    (conn, source, local) => serveSocks(new BufferedConn(conn), source, local, opts),
    ctx.serverLayers({ tls: o.tls }),
  );
}
