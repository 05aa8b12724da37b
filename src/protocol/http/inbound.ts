/** The `http` inbound: HTTP proxy with CONNECT and absolute-URI forwarding, optional Basic auth. */
import type { Inbound, InboundContext } from "../../adapter/mod.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { StreamInbound } from "../../net/stream_inbound.ts";
import { serveHttp } from "./server.ts";

export interface HttpInboundOptions {
  tag: string;
  listen: string;
  listen_port?: number;
  users?: { username: string; password: string }[];
  /** The `tls` block: an HTTPS proxy. */
  tls?: unknown;
}

export function createHttpInbound(o: HttpInboundOptions, ctx: InboundContext): Inbound {
  const opts = {
    inbound: o.tag,
    inboundType: "http",
    users: new Map((o.users ?? []).map((u) => [u.username, u.password])),
    handler: ctx.handler,
  };
  return new StreamInbound(
    "http",
    o.tag,
    o,
    ctx.logger,
    (conn, source) => serveHttp(new BufferedConn(conn), source, opts),
    ctx.serverLayers({ tls: o.tls }),
  );
}
