/**
 * Group outbounds: selector, urltest, fallback, load-balance. They register like protocols; each
 * engine's registry call makes one HealthChecks shared by all its groups (no module state).
 */
import type { OutboundContext, Registry } from "../adapter/mod.ts";
import { keeps, regexes } from "./providers/provider.ts";
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
  const env = (ctx: OutboundContext, o?: ProviderOptions): GroupEnv => {
    // The probe's TLS uses the engine's trust store through any group's context.
    health ??= new HealthChecks(urlProbe({ clock: systemClock, clientLayers: ctx.clientLayers }));
    ctx.providers?.useHealth(health);
    return { logger: ctx.logger, outbound: ctx.outbound, health, providerMembers: providerMembers(ctx, o) };
  };
  r.outbound("selector", (o, ctx) => new SelectorGroup(o, env(ctx, o)));
  r.outbound("urltest", (o, ctx) => new UrlTestGroup(o, env(ctx, o)));
  r.outbound("fallback", (o, ctx) => new FallbackGroup(o, env(ctx, o)));
  r.outbound("load-balance", (o, ctx) => new LoadBalanceGroup(o, env(ctx, o)));
}

interface ProviderOptions {
  providers?: string[];
  filter?: string[];
  exclude?: string[];
}

/** A group's live provider members (its `filter`/`exclude` on their tags); throws for an unknown provider. */
export function providerMembers(ctx: OutboundContext, o?: ProviderOptions): (() => string[]) | undefined {
  const names = o?.providers ?? [];
  if (names.length === 0) return undefined;
  const access = ctx.providers;
  names.forEach((p, i) => {
    if (!access?.tags(p)) throw new Error(`"providers/${i}" names "${p}", which is not an outbound provider`);
  });
  const filter = regexes(o?.filter, "filter");
  const exclude = regexes(o?.exclude, "exclude");
  return () => names.flatMap((p) => access!.tags(p) ?? []).filter((t) => keeps(t, filter, exclude));
}
