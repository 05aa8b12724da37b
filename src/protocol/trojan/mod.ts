/** The `trojan` protocol (trojan-gfw's wire format): registers its inbound and outbound by type. */
import type { Registry } from "../../adapter/mod.ts";
import { TrojanInbound } from "./inbound.ts";
import { TrojanOutbound } from "./outbound.ts";

export function register(r: Registry): void {
  r.inbound("trojan", (o, ctx) => new TrojanInbound(o, ctx), { reloadable: true });
  r.outbound("trojan", (o, ctx) => new TrojanOutbound(o, ctx));
}
