/** The `http` inbound: HTTP proxy with CONNECT and absolute-URI forwarding, optional Basic auth. */
import type { Inbound, InboundContext } from "../../adapter/mod.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { serveTcp, type TcpServer } from "../../net/tcp_server.ts";
import { serveHttp } from "./server.ts";

export interface HttpInboundOptions {
  tag: string;
  listen: string;
  listen_port?: number;
  users?: { username: string; password: string }[];
}

export class HttpInbound implements Inbound {
  readonly type = "http";
  readonly tag: string;
  private server?: TcpServer;

  constructor(private readonly options: HttpInboundOptions, private readonly ctx: InboundContext) {
    this.tag = options.tag;
  }

  get address(): Deno.NetAddr | undefined {
    return this.server?.addr;
  }

  start(): Promise<void> {
    const o = this.options;
    if (o.listen_port === undefined) return Promise.resolve();
    const users = new Map((o.users ?? []).map((u) => [u.username, u.password]));
    this.server = serveTcp(
      o.listen,
      o.listen_port,
      this.ctx.logger,
      (conn, remote) =>
        serveHttp(new BufferedConn(conn), { host: remote.hostname, port: remote.port }, {
          inbound: this.tag,
          inboundType: this.type,
          users,
          handler: this.ctx.handler,
        }),
    );
    this.ctx.logger.info(`listening on ${o.listen}:${this.server.addr.port}`);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}
