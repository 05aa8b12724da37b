/**
 * Route rules: conditions and flat action fields as in sing-box 1.14, a `default` or `logical`
 * rule. Which action fields belong to which action is checked in validate.ts.
 */
import { z } from "zod";
import { domainStrategy, listable, networkKind, networkStrategy, port, strings } from "./common.ts";
import { duration } from "./duration.ts";
import { commonConditionShape, normaliseMode, routeOnlyConditionShape } from "./rule_conditions.ts";

export const ROUTE_ACTIONS = [
  "route",
  "bypass",
  "reject",
  "hijack-dns",
  "route-options",
  "sniff",
  "resolve",
] as const;
export type RouteAction = typeof ROUTE_ACTIONS[number];

const OVERRIDE_DESTINATION = 'expected true, false or "at_sniff"';

const routeOptionsShape = {
  override_address: z.string().optional(),
  override_port: port().optional(),
  network_strategy: networkStrategy().optional(),
  network_type: listable(networkKind(), "a network type").optional(),
  fallback_network_type: listable(networkKind(), "a network type").optional(),
  fallback_delay: duration().optional(),
  udp_disable_domain_unmapping: z.boolean().optional(),
  udp_connect: z.boolean().optional(),
  udp_timeout: duration().optional(),
  tls_fragment: z.boolean().optional(),
  tls_fragment_fallback_delay: duration().optional(),
  tls_record_fragment: z.boolean().optional(),
};

export const routeActionShape = {
  action: z.enum(ROUTE_ACTIONS).default("route"),
  outbound: z.string().optional(),
  ...routeOptionsShape,
  /** Extension: dial the sniffed domain instead of the address; `at_sniff` on `sniff` only. */
  override_destination: z.union([z.boolean(), z.literal("at_sniff", { error: OVERRIDE_DESTINATION })], {
    error: OVERRIDE_DESTINATION,
  }).optional(),
  sniffer: strings().optional(),
  /** Extension: sniffed domains matched by these rule-sets are ignored. */
  skip_rule_set: strings().optional(),
  /** Milliseconds; sniff: 300 by default. */
  timeout: duration().optional(),
  method: z.enum(["default", "drop", "reply"]).optional(),
  no_drop: z.boolean().optional(),
  server: z.string().optional(),
  strategy: domainStrategy().optional(),
  disable_cache: z.boolean().optional(),
  disable_optimistic_cache: z.boolean().optional(),
  rewrite_ttl: z.int().min(0).optional(),
  client_subnet: z.string().optional(),
};

/** Action fields each action accepts. */
export const ROUTE_ACTION_FIELDS: Readonly<Record<RouteAction, readonly string[]>> = {
  route: ["outbound", ...Object.keys(routeOptionsShape), "override_destination"],
  bypass: ["outbound", ...Object.keys(routeOptionsShape)],
  reject: ["method", "no_drop"],
  "hijack-dns": [],
  "route-options": [...Object.keys(routeOptionsShape), "override_destination"],
  sniff: ["sniffer", "skip_rule_set", "timeout", "override_destination"],
  resolve: [
    "server",
    "strategy",
    "disable_cache",
    "disable_optimistic_cache",
    "rewrite_ttl",
    "client_subnet",
    "timeout",
  ],
};

export const ROUTE_ACTION_FIELD_NAMES: readonly string[] = Object.keys(routeActionShape).filter((k) =>
  k !== "action"
);

/** Action defaults that depend on the action: reject `method`, sniff `timeout`. */
function actionDefaults<T>(v: T): T {
  const r = v as { action: RouteAction; method?: string; timeout?: number };
  if (r.action === "reject" && r.method === undefined) return { ...v, method: "default" };
  if (r.action === "sniff" && r.timeout === undefined) return { ...v, timeout: 300 };
  return v;
}

const conditionShape = { ...commonConditionShape, ...routeOnlyConditionShape };

/** A nested rule of a logical rule: conditions only. */
export const RouteRuleConditions = z
  .strictObject({ type: z.literal("default").optional(), ...conditionShape })
  .transform((v) => ({ ...normaliseMode(v), type: "default" as const }));
export type RouteRuleConditionsModel = z.output<typeof RouteRuleConditions>;

export interface LogicalRouteRuleConditions {
  type: "logical";
  mode: "and" | "or";
  rules: RouteRuleCondition[];
  invert: boolean;
}
export type RouteRuleCondition = RouteRuleConditionsModel | LogicalRouteRuleConditions;

const logicalShape = {
  type: z.literal("logical"),
  mode: z.enum(["and", "or"]),
  get rules() {
    return z.array(NestedRouteRule).min(1, { error: "a logical rule needs at least one nested rule" });
  },
  invert: z.boolean().default(false),
};

const NestedLogicalRouteRule: z.ZodType<LogicalRouteRuleConditions> = z.strictObject(logicalShape);

export const NestedRouteRule: z.ZodType<RouteRuleCondition> = z.lazy(() =>
  z.discriminatedUnion("type", [RouteRuleConditions, NestedLogicalRouteRule as never])
);

export const DefaultRouteRule = z
  .strictObject({ type: z.literal("default").optional(), ...conditionShape, ...routeActionShape })
  .transform((v) => {
    const rule = { ...normaliseMode(v), type: "default" as const };
    return actionDefaults(rule);
  });

export const LogicalRouteRule = z
  .strictObject({ ...logicalShape, ...routeActionShape })
  .transform((v) => actionDefaults(v));

export const RouteRuleSchema = z.discriminatedUnion("type", [DefaultRouteRule, LogicalRouteRule]);

export type DefaultRouteRuleModel = z.output<typeof DefaultRouteRule>;
export type LogicalRouteRuleModel = z.output<typeof LogicalRouteRule>;
export type RouteRule = z.output<typeof RouteRuleSchema>;
