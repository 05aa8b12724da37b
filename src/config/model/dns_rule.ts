/** DNS rules: conditions, response match fields and flat action fields (sing-box 1.14). */
import { z } from "zod";
import { domainStrategy, listable, strings } from "./common.ts";
import { duration } from "./duration.ts";
import { commonConditionShape, normaliseMode } from "./rule_conditions.ts";

export const DNS_ACTIONS = ["route", "evaluate", "respond", "route-options", "reject", "predefined"] as const;
export type DnsAction = typeof DNS_ACTIONS[number];

const rcode = () =>
  z.union([z.int().min(0).max(4095), z.string()], { error: "expected a response code name or number" });

const dnsConditionShape = {
  ...commonConditionShape,
  network: listable(z.enum(["tcp", "udp"]), '"tcp" or "udp"').optional(),
  query_type: listable(z.union([z.int().min(0).max(65535), z.string()]), "a query type").optional(),
  /** Matches the response of an earlier `evaluate` rule (true: the latest; a string: by its tag). */
  match_response: z.union([z.boolean(), z.string()], { error: "expected a boolean or an evaluate tag" })
    .optional(),
  ip_accept_any: z.boolean().optional(),
  response_rcode: rcode().optional(),
  response_answer: strings().optional(),
  response_ns: strings().optional(),
  response_extra: strings().optional(),
  /** Deprecated in sing-box 1.12 (use `domain_resolver`); still matched. */
  outbound: strings().optional(),
  /** Extension: address conditions hold for every address of the response. */
  ip_match_all: z.boolean().optional(),
};

export const dnsActionShape = {
  action: z.enum(DNS_ACTIONS).default("route"),
  race: z.boolean().optional(),
  server: z.string().optional(),
  tag: z.string().optional(),
  speculative: z.boolean().optional(),
  timeout: duration().optional(),
  disable_cache: z.boolean().optional(),
  disable_optimistic_cache: z.boolean().optional(),
  rewrite_ttl: z.int().min(0).optional(),
  client_subnet: z.string().optional(),
  remove_client_subnet: z.boolean().optional(),
  /** Deprecated in sing-box 1.14 (use `ip_version` / `query_type`); still honoured. */
  strategy: domainStrategy().optional(),
  rcode: rcode().optional(),
  answer: strings().optional(),
  ns: strings().optional(),
  extra: strings().optional(),
};

const queryFields = [
  "timeout",
  "disable_cache",
  "disable_optimistic_cache",
  "rewrite_ttl",
  "client_subnet",
  "remove_client_subnet",
];

/** Action fields each DNS action accepts. */
export const DNS_ACTION_FIELDS: Readonly<Record<DnsAction, readonly string[]>> = {
  route: ["server", "race", "speculative", "strategy", ...queryFields],
  evaluate: ["server", "tag", "speculative", ...queryFields],
  respond: ["race"],
  "route-options": queryFields,
  reject: ["race"],
  predefined: ["race", "rcode", "answer", "ns", "extra"],
};

export const DnsRuleConditions = z
  .strictObject({ type: z.literal("default").optional(), ...dnsConditionShape })
  .transform((v) => ({ ...normaliseMode(v), type: "default" as const }));
export type DnsRuleConditionsModel = z.output<typeof DnsRuleConditions>;

export interface LogicalDnsRuleConditions {
  type: "logical";
  mode: "and" | "or";
  rules: DnsRuleCondition[];
  invert: boolean;
}
export type DnsRuleCondition = DnsRuleConditionsModel | LogicalDnsRuleConditions;

const logicalShape = {
  type: z.literal("logical"),
  mode: z.enum(["and", "or"]),
  get rules() {
    return z.array(NestedDnsRule).min(1, { error: "a logical rule needs at least one nested rule" });
  },
  invert: z.boolean().default(false),
};

const NestedLogicalDnsRule: z.ZodType<LogicalDnsRuleConditions> = z.strictObject(logicalShape);

export const NestedDnsRule: z.ZodType<DnsRuleCondition> = z.lazy(() =>
  z.discriminatedUnion("type", [DnsRuleConditions, NestedLogicalDnsRule as never])
);

export const DefaultDnsRule = z
  .strictObject({ type: z.literal("default").optional(), ...dnsConditionShape, ...dnsActionShape })
  .transform((v) => ({ ...normaliseMode(v), type: "default" as const }));

export const LogicalDnsRule = z.strictObject({ ...logicalShape, ...dnsActionShape });

export const DnsRuleSchema = z.discriminatedUnion("type", [DefaultDnsRule, LogicalDnsRule]);

export type DefaultDnsRuleModel = z.output<typeof DefaultDnsRule>;
export type LogicalDnsRuleModel = z.output<typeof LogicalDnsRule>;
export type DnsRule = z.output<typeof DnsRuleSchema>;
