/**
 * The rule shape matchers compile from: sing-box field names, lists already normalised to arrays.
 * Structural on purpose, so the config model's route rules (and, later, DNS rules) are accepted
 * as they are; action fields and anything else are ignored here.
 */
import type { Metadata } from "../../adapter/metadata.ts";

type List<T> = readonly T[];

export interface RuleInput {
  type?: "default" | "logical";
  /** Logical rules. */
  mode?: "and" | "or";
  rules?: readonly RuleInput[];
  invert?: boolean;

  inbound?: List<string>;
  ip_version?: number;
  network?: List<string>;
  auth_user?: List<string>;
  protocol?: List<string>;
  client?: List<string>;
  domain?: List<string>;
  domain_suffix?: List<string>;
  domain_keyword?: List<string>;
  domain_regex?: List<string>;
  source_ip_cidr?: List<string>;
  source_ip_is_private?: boolean;
  ip_cidr?: List<string>;
  ip_suffix?: List<string>;
  source_ip_suffix?: List<string>;
  ip_is_private?: boolean;
  source_port?: List<number>;
  source_port_range?: List<string>;
  port?: List<number>;
  port_range?: List<string>;
  // Conditions not implemented yet (unsupported.ts) are read by name, whatever their shape.
}

/** Reads any field of a rule by name. */
export function ruleField(rule: RuleInput, field: string): unknown {
  return (rule as Record<string, unknown>)[field];
}

/** A compiled condition. */
export type Predicate = (m: Metadata) => boolean;

export interface RuleMatcher {
  match(m: Metadata): boolean;
  /** Condition fields set on the rule (nested rules included); 0 means it matches everything. */
  conditionCount: number;
}

/**
 * How sing-box combines a default rule's items (route/rule/rule_abstract.go): items in the same
 * group OR together, the groups AND together, and each `item` stands alone (AND).
 * `destination_address` (domain items) and `destination_ip` (ip_cidr, ip_is_private) form one OR
 * group for route rules; they are apart so DNS rules can treat IP items differently.
 */
export type ConditionGroup =
  | "item"
  | "source_address"
  | "source_port"
  | "destination_address"
  | "destination_ip"
  | "destination_port";

export interface CompileContext {
  /** JSON pointer of the rule, for ConfigError paths ("" when unknown). */
  readonly path: string;
  /** Noun for messages: "route rule", "DNS rule". */
  readonly label: string;
  /** The engine's rule-sets, for `rule_set`; absent where none are loaded. */
  readonly ruleSets?: RuleSetLookup;
}

/** What the `rule_set` condition needs of a loaded rule-set (src/route/rule_set). */
export interface RuleSetLookup {
  get(tag: string): { match: Predicate; matchSource: Predicate } | undefined;
}

/** One condition kind: the rule fields it reads, its group, and how to build its predicate. */
export interface ConditionDef {
  /** Fields this condition reads; it applies when any of them is set (non-empty, true, non-zero). */
  readonly fields: readonly string[];
  readonly group: ConditionGroup;
  /** Builds the predicate; throws ConfigError for bad values, UnsupportedError for missing features. */
  compile(rule: RuleInput, ctx: CompileContext): Predicate;
}
