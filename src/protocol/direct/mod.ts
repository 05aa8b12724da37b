import type { Registry } from "../../adapter/mod.ts";
import { DirectInbound } from "./inbound.ts";
import { DirectOutbound } from "./outbound.ts";

export function register(r: Registry): void {
  r.inbound("direct", (o, ctx) => new DirectInbound(o, ctx));
  r.outbound("direct", (o, ctx) => new DirectOutbound(o, ctx));
}
