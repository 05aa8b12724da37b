/**
 * Group outbounds: members are other outbounds (`outbounds`) and provider outbounds
 * (`providers`, extension). `selector` and `urltest` are sing-box's; `fallback` and `load-balance`
 * are extensions with mihomo's meaning. `filter`/`exclude` (extension) pick provider members by tag.
 */
import { z } from "zod";
import { strings, typedShape, withTag } from "./common.ts";
import { duration } from "./duration.ts";

const memberShape = {
  outbounds: z.array(z.string()).default([]),
  providers: z.array(z.string()).optional(),
  /** Regular expressions: provider outbounds are kept when their tag matches one. */
  filter: strings("a regular expression").optional(),
  /** Regular expressions: provider outbounds are dropped when their tag matches one. */
  exclude: strings("a regular expression").optional(),
  interrupt_exist_connections: z.boolean().optional(),
};

const testShape = {
  url: z.string().default("https://www.gstatic.com/generate_204"),
  interval: duration().default(180_000),
  /** Only test while the group is in use; tested on first use. */
  idle_timeout: duration().default(1_800_000),
  /** Extension (mihomo `lazy`): false keeps testing while idle. */
  lazy: z.boolean().optional(),
  /** Extension: how long one test may take. */
  timeout: duration().optional(),
};

export const SelectorOutbound = z
  .strictObject({ ...typedShape("selector"), ...memberShape, default: z.string().optional() })
  .transform(withTag);

export const UrlTestOutbound = z
  .strictObject({
    ...typedShape("urltest"),
    ...memberShape,
    ...testShape,
    /** Milliseconds a new best must beat the current one by. */
    tolerance: z.int().min(0).default(50),
  })
  .transform(withTag);

export const FallbackOutbound = z
  .strictObject({ ...typedShape("fallback"), ...memberShape, ...testShape })
  .transform(withTag);

export const LoadBalanceOutbound = z
  .strictObject({
    ...typedShape("load-balance"),
    ...memberShape,
    ...testShape,
    strategy: z.enum(["round-robin", "consistent-hashing", "sticky-sessions"]).default("consistent-hashing"),
  })
  .transform(withTag);

export type SelectorOutboundModel = z.output<typeof SelectorOutbound>;
export type UrlTestOutboundModel = z.output<typeof UrlTestOutbound>;
export type FallbackOutboundModel = z.output<typeof FallbackOutbound>;
export type LoadBalanceOutboundModel = z.output<typeof LoadBalanceOutbound>;
