/** The `dns` object. */
import { z } from "zod";
import { domainStrategy } from "./common.ts";
import { duration } from "./duration.ts";
import { DnsRuleSchema } from "./dns_rule.ts";
import { DnsServer } from "./dns_server.ts";

const THREE_DAYS = 3 * 86_400_000;

/** `optimistic`: a boolean or `{enabled, timeout}`; the model always holds the object. */
const Optimistic = z
  .union([
    z.boolean(),
    z.strictObject({ enabled: z.boolean().default(false), timeout: duration().default(THREE_DAYS) }),
  ], { error: 'expected a boolean or an object with "enabled" and "timeout"' })
  .transform((v) => (typeof v === "boolean" ? { enabled: v, timeout: THREE_DAYS } : v));

export const Dns = z.strictObject({
  /** None configured means the system resolver alone answers. */
  servers: z.array(DnsServer).default([]),
  rules: z.array(DnsRuleSchema).default([]),
  /** Server tag for queries no rule matches; the first server when unset (filled in top.ts). */
  final: z.string().optional(),
  reverse_mapping: z.boolean().default(false),
  strategy: domainStrategy().default("prefer_ipv4"),
  /** Milliseconds for one query to one server. */
  timeout: duration().default(10_000),
  disable_cache: z.boolean().default(false),
  disable_expire: z.boolean().default(false),
  /** Answers kept; values below 1024 are raised to 1024. */
  cache_capacity: z.int().min(0).default(1024).transform((n) => Math.max(n, 1024)),
  optimistic: Optimistic.default({ enabled: false, timeout: THREE_DAYS }),
  client_subnet: z.string().optional(),
  /** Dropped with a warning by the reference table (answers are always kept per server). */
  independent_cache: z.boolean().optional(),
  /** Extension: address families in answers to clients' queries. */
  client_strategy: domainStrategy().optional(),
});

export type DnsModel = z.output<typeof Dns>;
