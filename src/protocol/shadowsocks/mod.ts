/** The `shadowsocks` protocol: registers its inbound and outbound by type. */
import type { Registry } from "../../adapter/mod.ts";
import { createShadowsocksInbound } from "./inbound.ts";
import { ShadowsocksOutbound } from "./outbound.ts";

export function register(r: Registry): void {
  r.inbound("shadowsocks", createShadowsocksInbound, { reloadable: true });
  r.outbound("shadowsocks", (o, ctx) => new ShadowsocksOutbound(o, ctx));
}
