/** The `trojan` inbound: a stream listener (TLS and transport from the layers) serving trojan. */
import type { Inbound, InboundContext, UsersReloadable } from "../../adapter/mod.ts";
import type { TrojanInboundModel } from "../../config/model/protocols/trojan.ts";
import { StreamInbound } from "../../net/stream_inbound.ts";
import { serveTrojan, type TrojanFallback } from "./server.ts";
import { TrojanUsers } from "./users.ts";

export class TrojanInbound implements Inbound, UsersReloadable {
  readonly type = "trojan";
  readonly tag: string;
  private readonly users: TrojanUsers;
  private readonly stream: StreamInbound;

  constructor(o: TrojanInboundModel, ctx: InboundContext) {
    this.tag = o.tag;
    this.users = new TrojanUsers(o.users ?? []);
    const fallback: TrojanFallback = {
      default: o.fallback && { host: o.fallback.server, port: o.fallback.server_port },
      byAlpn: new Map(
        Object.entries(o.fallback_for_alpn ?? {}).map((
          [alpn, f],
        ) => [alpn, { host: f.server, port: f.server_port }]),
      ),
    };
    const opts = { inbound: o.tag, users: this.users, fallback, handler: ctx.handler, logger: ctx.logger };
    this.stream = new StreamInbound(
      "trojan",
      o.tag,
      o,
      ctx.logger,
      (conn, source, _local, info) => serveTrojan(conn, source, info, opts),
      ctx.serverLayers({ tls: o.tls, transport: o.transport }),
    );
  }

  /** Where it listens once started. */
  get address(): Deno.NetAddr | undefined {
    return this.stream.address;
  }

  start(): Promise<void> {
    return this.stream.start();
  }

  close(): Promise<void> {
    return this.stream.close();
  }

  replaceUsers(users: readonly unknown[]): void {
    this.users.replace(users);
  }

  currentUsers(): readonly unknown[] {
    return this.users.current();
  }
}
