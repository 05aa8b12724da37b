/** The `vless` protocol: registers its inbound and outbound by type. */
import type { Registry } from "../../adapter/mod.ts";
import { VlessInbound } from "./inbound.ts";
import { VlessOutbound } from "./outbound.ts";

export function register(r: Registry): void {
  r.inbound("vless", (o, ctx) => new VlessInbound(o, ctx), { reloadable: true });
  r.outbound("vless", (o, ctx) => new VlessOutbound(o, ctx));
}
