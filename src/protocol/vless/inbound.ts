/** The `vless` inbound: VLESS behind the item's TLS and transport layers, users swappable at run time. */
import type { Inbound, InboundContext, UsersReloadable } from "../../adapter/mod.ts";
import type { VlessInboundModel } from "../../config/model/protocols/vless.ts";
import { StreamInbound } from "../../net/stream_inbound.ts";
import { serveVless } from "./server.ts";
import { VlessUsers } from "./users.ts";

export class VlessInbound implements Inbound, UsersReloadable {
  readonly type = "vless";
  readonly tag: string;
  private readonly users: VlessUsers;
  private readonly stream: StreamInbound;

  constructor(o: VlessInboundModel, ctx: InboundContext) {
    this.tag = o.tag;
    this.users = new VlessUsers(o.users ?? []);
    const opts = { inbound: o.tag, users: this.users, handler: ctx.handler, logger: ctx.logger };
    this.stream = new StreamInbound(
      "vless",
      o.tag,
      o,
      ctx.logger,
      (conn, source) => serveVless(conn, source, opts),
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
