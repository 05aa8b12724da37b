/**
 * The ordered rule walk: non-final actions (sniff, resolve, route-options) change the metadata
 * and matching goes on; the first final action (route, bypass, reject, hijack-dns) decides.
 * No rule deciding means `route.final`.
 */
import type { Metadata } from "../adapter/mod.ts";
import { isIpLiteral } from "../adapter/mod.ts";
import { errorText } from "../common/errors.ts";
import type { Logger } from "../common/log.ts";
import type { DomainStrategy, Resolver } from "../net/resolver.ts";
import type { RuleMatcher } from "./rules/mod.ts";
import type { SniffResult } from "./sniff/mod.ts";

/** The action fields of a route rule the router reads (the config model's names). */
export interface RuleAction {
  action: string;
  outbound?: string;
  override_address?: string;
  override_port?: number;
  override_destination?: boolean | "at_sniff";
  udp_timeout?: number;
  sniffer?: string[];
  timeout?: number;
  method?: string;
  strategy?: string;
  server?: string;
}

export interface CompiledRule {
  index: number;
  matcher: RuleMatcher;
  action: RuleAction;
  /** Human text for logs and APIs: `domain_suffix=example.com => route(proxy)`. */
  text: string;
}

export type Decision =
  | { kind: "route"; outbound: string | undefined; rule: string }
  | { kind: "reject"; method: string; rule: string }
  | { kind: "hijack-dns"; rule: string };

/** What the caller can sniff from: called with the sniffers to try and the timeout. */
export type Sniffer = (
  allowed: ReadonlySet<string> | undefined,
  timeoutMs: number,
) => Promise<SniffResult | undefined>;

export interface DecideContext {
  rules: readonly CompiledRule[];
  resolver: Resolver;
  logger: Logger;
  sniff?: Sniffer;
}

export async function decide(metadata: Metadata, ctx: DecideContext): Promise<Decision> {
  for (const rule of ctx.rules) {
    if (!rule.matcher.match(metadata)) continue;
    const a = rule.action;
    switch (a.action) {
      case "sniff":
        if (!metadata.sniffDone && ctx.sniff) {
          const found = await ctx.sniff(a.sniffer ? new Set(a.sniffer) : undefined, a.timeout ?? 300);
          metadata.sniffDone = true;
          if (found) applySniff(metadata, found, a.override_destination);
        }
        continue;
      case "resolve":
        await resolve(metadata, ctx, a.strategy as DomainStrategy | undefined, a.server);
        continue;
      case "route-options":
        applyOptions(metadata, a);
        continue;
      case "route":
      case "bypass":
        applyOptions(metadata, a);
        return { kind: "route", outbound: a.outbound, rule: rule.text };
      case "reject":
        return { kind: "reject", method: a.method ?? "default", rule: rule.text };
      case "hijack-dns":
        return { kind: "hijack-dns", rule: rule.text };
      default:
        // Validation admits no other action; refuse rather than guess.
        return { kind: "reject", method: "default", rule: rule.text };
    }
  }
  return { kind: "route", outbound: undefined, rule: "final" };
}

function applySniff(m: Metadata, found: SniffResult, override: boolean | "at_sniff" | undefined): void {
  m.protocol = found.protocol;
  if (found.client) m.client = found.client;
  if (found.domain) {
    m.sniffedDomain = found.domain;
    if (override) overrideHost(m, found.domain);
  }
}

function applyOptions(m: Metadata, a: RuleAction): void {
  if (a.override_destination === true && m.sniffedDomain) overrideHost(m, m.sniffedDomain);
  if (a.override_address !== undefined || a.override_port !== undefined) {
    m.originalDestination ??= { ...m.destination };
    m.destination = {
      host: a.override_address ?? m.destination.host,
      port: a.override_port ?? m.destination.port,
    };
    if (a.override_address !== undefined) m.resolvedAddresses = undefined;
  }
  if (a.udp_timeout !== undefined) m.udpTimeoutMs = a.udp_timeout;
}

function overrideHost(m: Metadata, host: string): void {
  m.originalDestination ??= { ...m.destination };
  m.destination = { host, port: m.destination.port };
  m.resolvedAddresses = undefined;
}

async function resolve(
  m: Metadata,
  ctx: DecideContext,
  strategy?: DomainStrategy,
  server?: string,
): Promise<void> {
  const host = m.destination.host;
  if (isIpLiteral(host)) return;
  try {
    m.resolvedAddresses = await ctx.resolver.lookup(host, strategy, server);
  } catch (e) {
    ctx.logger.debug(`resolve "${host}" failed: ${errorText(e)}`);
  }
}
