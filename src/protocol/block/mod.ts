import type { Registry } from "../../adapter/mod.ts";
import { BlockOutbound } from "./outbound.ts";

export function register(r: Registry): void {
  r.outbound("block", (o: { tag: string }) => new BlockOutbound(o.tag));
}
