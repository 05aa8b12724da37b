/** The `socks` inbound: SOCKS4/4a/5 with optional username/password and UDP ASSOCIATE. */
import type { Inbound, InboundContext } from "../../adapter/mod.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { serveTcp, type TcpServer } from "../../net/tcp_server.ts";
import { serveSocks } from "./server.ts";

export interface ProxyInboundOptions {
  type: string;
  tag: string;
  listen: string;
  listen_port?: number;
  udp_timeout: number;
  users?: { username: string; password: string }[];
}

export function usersMap(users: ProxyInboundOptions["users"]): Map<string, string> {
  return new Map((users ?? []).map((u) => [u.username, u.password]));
}

export class SocksInbound implements Inbound {
  readonly type = "socks";
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
    this.server = serveTcp(
      o.listen,
      o.listen_port,
      this.ctx.logger,
      (conn, remote, local) =>
        serveSocks(new BufferedConn(conn), { host: remote.hostname, port: remote.port }, {
          host: local.hostname,
          port: local.port,
        }, {
          inbound: this.tag,
          inboundType: this.type,
          users,
          handler: this.ctx.handler,
          logger: this.ctx.logger,
          udpTimeoutMs: o.udp_timeout,
        }),
    );
    this.ctx.logger.info(`listening on ${o.listen}:${this.server.addr.port}`);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}
