/**
 * Group outbounds: selector, urltest, fallback, load-balance. They register like protocols; each
 * engine's registry call makes one HealthChecks shared by all its groups (no module state).
 */
import type { OutboundContext, Registry } from "../adapter/mod.ts";
import { systemClock } from "./clock.ts";
import { FallbackGroup } from "./fallback.ts";
import type { GroupEnv } from "./group.ts";
import { HealthChecks } from "./health.ts";
import { LoadBalanceGroup } from "./load_balance.ts";
import { SelectorGroup } from "./selector.ts";
import { urlProbe } from "./url_probe.ts";
import { UrlTestGroup } from "./urltest.ts";

export { FallbackGroup, HealthChecks, LoadBalanceGroup, SelectorGroup, UrlTestGroup };
export type { DelayRecord, Probe } from "./health.ts";
export { GroupOutbound } from "./group.ts";
export { TestedGroup } from "./tested.ts";

export function register(r: Registry): void {
  let health: HealthChecks | undefined;
  const env = (ctx: OutboundContext): GroupEnv => {
    // The probe's TLS uses the engine's trust store through any group's context.
    health ??= new HealthChecks(urlProbe({ clock: systemClock, clientLayers: ctx.clientLayers }));
    return { logger: ctx.logger, outbound: ctx.outbound, health };
  };
  r.outbound("selector", (o, ctx) => new SelectorGroup(o, env(ctx)));
  r.outbound("urltest", (o, ctx) => new UrlTestGroup(o, env(ctx)));
  r.outbound("fallback", (o, ctx) => new FallbackGroup(o, env(ctx)));
  r.outbound("load-balance", (o, ctx) => new LoadBalanceGroup(o, env(ctx)));
}
