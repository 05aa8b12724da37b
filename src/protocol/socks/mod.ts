import type { Registry } from "../../adapter/mod.ts";
import { createSocksInbound } from "./inbound.ts";
import { SocksOutbound } from "./outbound.ts";

export { serveSocks } from "./server.ts";
export { usersMap } from "./inbound.ts";
export type { ProxyInboundOptions } from "./inbound.ts";

export function register(r: Registry): void {
  r.inbound("socks", createSocksInbound);
  r.outbound("socks", (o, ctx) => new SocksOutbound(o, ctx));
}
