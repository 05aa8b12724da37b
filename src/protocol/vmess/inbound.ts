/** The `vmess` inbound: VMess AEAD behind the item's TLS and transport layers, users swappable at run time. */
import type { Inbound, InboundContext, UsersReloadable } from "../../adapter/mod.ts";
import type { VmessInboundModel } from "../../config/model/protocols/vmess.ts";
import { StreamInbound } from "../../net/stream_inbound.ts";
import { serveVmess } from "./server.ts";
import { ReplayFilter, VmessUsers } from "./users.ts";

export class VmessInbound implements Inbound, UsersReloadable {
  readonly type = "vmess";
  readonly tag: string;
  private readonly users: VmessUsers;
  private readonly stream: StreamInbound;

  constructor(o: VmessInboundModel, ctx: InboundContext) {
    this.tag = o.tag;
    this.users = new VmessUsers(o.users ?? []);
    const opts = {
      inbound: o.tag,
      users: this.users,
      replay: new ReplayFilter(),
      handler: ctx.handler,
      logger: ctx.logger,
      // v2ray drains 16+38 .. 3266 bytes, fixed per server: the same here, chosen per inbound.
      drainBase: 54 + Math.floor(Math.random() * 3212),
    };
    this.stream = new StreamInbound(
      "vmess",
      o.tag,
      o,
      ctx.logger,
      (conn, source) => serveVmess(conn, source, opts),
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
