import type { Registry } from "../../adapter/mod.ts";
import { createHttpInbound } from "./inbound.ts";
import { HttpOutbound } from "./outbound.ts";

export { serveHttp } from "./server.ts";

export function register(r: Registry): void {
  r.inbound("http", createHttpInbound);
  r.outbound("http", (o, ctx) => new HttpOutbound(o, ctx));
}
