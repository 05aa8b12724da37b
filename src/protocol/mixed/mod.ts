import type { Registry } from "../../adapter/mod.ts";
import { createMixedInbound } from "./inbound.ts";

export function register(r: Registry): void {
  r.inbound("mixed", createMixedInbound);
}
