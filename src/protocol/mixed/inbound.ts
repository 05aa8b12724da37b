/**
 * The `mixed` inbound: SOCKS4/4a/5 and HTTP proxy on one port, told apart by the first byte.
 * It composes the socks and http server handshakes (the one sanctioned protocol-to-protocol
 * import, as in sing-box; scripts/check_layers.ts allows exactly this).
 */
import type { Inbound, InboundContext } from "../../adapter/mod.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import { StreamInbound } from "../../net/stream_inbound.ts";
import { serveHttp } from "../http/mod.ts";
import { type ProxyInboundOptions, serveSocks, usersMap } from "../socks/mod.ts";

export function createMixedInbound(o: ProxyInboundOptions, ctx: InboundContext): Inbound {
  const common = { inbound: o.tag, inboundType: "mixed", users: usersMap(o.users), handler: ctx.handler };
  const socks = { ...common, logger: ctx.logger, udpTimeoutMs: o.udp_timeout };
  return new StreamInbound("mixed", o.tag, o, ctx.logger, async (raw, source, local) => {
    const conn = new BufferedConn(raw);
    const deadline = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
    const first = (await conn.need(1).finally(() => deadline.clear()))[0];
    if (first === 4 || first === 5) await serveSocks(conn, source, local, socks);
    else await serveHttp(conn, source, common);
  });
}
