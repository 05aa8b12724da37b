/** The `direct` outbound: dials the destination itself with the outbound's dial fields. */
import type {
  Address,
  Conn,
  Dialer,
  Metadata,
  Network,
  Outbound,
  OutboundContext,
  PacketConn,
} from "../../adapter/mod.ts";

export class DirectOutbound implements Outbound {
  readonly type = "direct";
  readonly tag: string;
  readonly networks: readonly Network[] = ["tcp", "udp"];
  readonly dependencies: readonly string[];
  private readonly dialer: Dialer;

  constructor(options: { tag: string; detour?: string }, ctx: OutboundContext) {
    this.tag = options.tag;
    this.dependencies = options.detour ? [options.detour] : [];
    this.dialer = ctx.dialer;
  }

  dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    return this.dialer.dial(destination, metadata, signal);
  }

  listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn> {
    return this.dialer.listenPacket(destination, metadata, signal);
  }
}
