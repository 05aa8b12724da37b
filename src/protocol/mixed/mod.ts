import type { Registry } from "../../adapter/mod.ts";
import { MixedInbound } from "./inbound.ts";

export function register(r: Registry): void {
  r.inbound("mixed", (o, ctx) => new MixedInbound(o, ctx));
}
