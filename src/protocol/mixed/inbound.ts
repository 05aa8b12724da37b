/**
 * The `mixed` inbound: SOCKS4/4a/5 and HTTP proxy on one port, told apart by the first byte.
 * It composes the socks and http server handshakes (the one sanctioned protocol-to-protocol
 * import, as in sing-box; scripts/check_layers.ts allows exactly this).
 */
import type { Inbound, InboundContext } from "../../adapter/mod.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { serveTcp, type TcpServer } from "../../net/tcp_server.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import { serveHttp } from "../http/mod.ts";
import { type ProxyInboundOptions, serveSocks, usersMap } from "../socks/mod.ts";

export class MixedInbound implements Inbound {
  readonly type = "mixed";
  readonly tag: string;
  private server?: TcpServer;

  constructor(private readonly options: ProxyInboundOptions, private readonly ctx: InboundContext) {
    this.tag = options.tag;
  }

  get address(): Deno.NetAddr | undefined {
    return this.server?.addr;
  }

  start(): Promise<void> {
    const o = this.options;
    if (o.listen_port === undefined) return Promise.resolve();
    const users = usersMap(o.users);
    const common = { inbound: this.tag, inboundType: this.type, users, handler: this.ctx.handler };
    this.server = serveTcp(o.listen, o.listen_port, this.ctx.logger, async (raw, remote, local) => {
      const conn = new BufferedConn(raw);
      const deadline = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
      const first = (await conn.need(1).finally(() => deadline.clear()))[0];
      const source = { host: remote.hostname, port: remote.port };
      if (first === 4 || first === 5) {
        await serveSocks(conn, source, { host: local.hostname, port: local.port }, {
          ...common,
          logger: this.ctx.logger,
          udpTimeoutMs: o.udp_timeout,
        });
      } else {
        await serveHttp(conn, source, common);
      }
    });
    this.ctx.logger.info(`listening on ${o.listen}:${this.server.addr.port}`);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}
