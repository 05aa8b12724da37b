/** The `vmess` protocol (VMess AEAD): registers its inbound and outbound by type. */
import type { Registry } from "../../adapter/mod.ts";
import { VmessInbound } from "./inbound.ts";
import { VmessOutbound } from "./outbound.ts";

export function register(r: Registry): void {
  r.inbound("vmess", (o, ctx) => new VmessInbound(o, ctx), { reloadable: true });
  r.outbound("vmess", (o, ctx) => new VmessOutbound(o, ctx));
}
