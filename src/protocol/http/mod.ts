import type { Registry } from "../../adapter/mod.ts";
import { HttpInbound } from "./inbound.ts";
import { HttpOutbound } from "./outbound.ts";

export { serveHttp } from "./server.ts";

export function register(r: Registry): void {
  r.inbound("http", (o, ctx) => new HttpInbound(o, ctx));
  r.outbound("http", (o, ctx) => new HttpOutbound(o, ctx));
}
