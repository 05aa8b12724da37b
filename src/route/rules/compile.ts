/**
 * Compiles a route rule into a matcher, with sing-box's semantics (route/rule/rule_abstract.go):
 *
 * - default rule: conditions of the same group OR together, the groups AND together, and every
 *   `item` condition must hold on its own. Domain items and destination IP items are one group
 *   (`domain_suffix` OR `ip_cidr`), source address items another, source ports and destination
 *   ports one each. `invert` negates the result. A rule without conditions matches everything,
 *   `invert` or not (sing-box returns before looking at invert when there are no items).
 * - logical rule: `and` / `or` over nested rules, then `invert`. It needs at least one nested rule,
 *   and every nested default rule needs a condition (sing-box: "missing conditions").
 */
import { ConfigError } from "../../common/errors.ts";
import { isSet } from "./fields.ts";
import { ROUTE_CONDITIONS } from "./registry.ts";
import {
  type CompileContext,
  type ConditionDef,
  type ConditionGroup,
  type Predicate,
  ruleField,
  type RuleInput,
  type RuleMatcher,
  type RuleSetLookup,
} from "./types.ts";

export interface CompileOptions {
  /** Condition kinds to use; the route list by default. */
  conditions?: readonly ConditionDef[];
  /** JSON pointer of the rule, prefixed to ConfigError paths. */
  path?: string;
  /** Noun for messages; "route rule" by default. */
  label?: string;
  /**
   * Whether `destination_ip` items join the domain items' group (sing-box route rules); when
   * false they form a group of their own. True by default.
   */
  mergeDestinationIp?: boolean;
  /** Loaded rule-sets for the `rule_set` condition. */
  ruleSets?: RuleSetLookup;
}

const always: Predicate = () => true;

/** AND of predicates, unrolled for the common small counts. */
export function allOf(ps: readonly Predicate[]): Predicate {
  switch (ps.length) {
    case 0:
      return always;
    case 1:
      return ps[0];
    case 2: {
      const [a, b] = ps;
      return (m) => a(m) && b(m);
    }
    case 3: {
      const [a, b, c] = ps;
      return (m) => a(m) && b(m) && c(m);
    }
    default: {
      const list = [...ps];
      return (m) => {
        for (let i = 0; i < list.length; i++) if (!list[i](m)) return false;
        return true;
      };
    }
  }
}

/** OR of predicates (false when empty). */
export function anyOf(ps: readonly Predicate[]): Predicate {
  switch (ps.length) {
    case 0:
      return () => false;
    case 1:
      return ps[0];
    case 2: {
      const [a, b] = ps;
      return (m) => a(m) || b(m);
    }
    default: {
      const list = [...ps];
      return (m) => {
        for (let i = 0; i < list.length; i++) if (list[i](m)) return true;
        return false;
      };
    }
  }
}

/** Group evaluation order: cheap checks first. The result does not depend on it. */
const GROUP_ORDER: readonly ConditionGroup[] = [
  "item",
  "destination_port",
  "source_port",
  "source_address",
  "destination_address",
  "destination_ip",
];

interface Compiled {
  predicate: Predicate;
  conditionCount: number;
}

function compileDefault(
  rule: RuleInput,
  defs: readonly ConditionDef[],
  ctx: CompileContext,
  merge: boolean,
): Compiled {
  const groups = new Map<ConditionGroup, Predicate[]>();
  let conditionCount = 0;
  for (const def of defs) {
    const set = def.fields.filter((f) => isSet(ruleField(rule, f))).length;
    if (set === 0) continue;
    conditionCount += set;
    const group = merge && def.group === "destination_ip" ? "destination_address" : def.group;
    const predicate = def.compile(rule, ctx);
    const list = groups.get(group) ?? [];
    list.push(predicate);
    groups.set(group, list);
  }
  if (conditionCount === 0) return { predicate: always, conditionCount };
  const clauses: Predicate[] = [];
  for (const group of GROUP_ORDER) {
    const list = groups.get(group);
    if (!list) continue;
    if (group === "item") clauses.push(...list);
    else clauses.push(anyOf(list));
  }
  const all = allOf(clauses);
  return { predicate: rule.invert ? (m) => !all(m) : all, conditionCount };
}

function compileAny(
  rule: RuleInput,
  defs: readonly ConditionDef[],
  ctx: CompileContext,
  merge: boolean,
  nested: boolean,
): Compiled {
  const type = rule.type ?? "default";
  if (type === "default") {
    const compiled = compileDefault(rule, defs, ctx, merge);
    if (nested && compiled.conditionCount === 0) throw new ConfigError(ctx.path, "missing conditions");
    return compiled;
  }
  if (type !== "logical") {
    throw new ConfigError(`${ctx.path}/type`, `unknown rule type "${type}": expected "default" or "logical"`);
  }
  const mode = rule.mode;
  if (mode !== "and" && mode !== "or") {
    throw new ConfigError(`${ctx.path}/mode`, `unknown logical mode "${mode}": expected "and" or "or"`);
  }
  const rules = rule.rules ?? [];
  if (rules.length === 0) throw new ConfigError(`${ctx.path}/rules`, "missing conditions");
  let conditionCount = 0;
  const predicates = rules.map((sub, i) => {
    const compiled = compileAny(sub, defs, { ...ctx, path: `${ctx.path}/rules/${i}` }, merge, true);
    conditionCount += compiled.conditionCount;
    return compiled.predicate;
  });
  const combined = mode === "and" ? allOf(predicates) : anyOf(predicates);
  return { predicate: rule.invert ? (m) => !combined(m) : combined, conditionCount };
}

/** Compiles `rule`; throws ConfigError for bad values and UnsupportedError for missing features. */
export function compileRule(rule: RuleInput, options: CompileOptions = {}): RuleMatcher {
  const ctx: CompileContext = {
    path: options.path ?? "",
    label: options.label ?? "route rule",
    ruleSets: options.ruleSets,
  };
  const compiled = compileAny(
    rule,
    options.conditions ?? ROUTE_CONDITIONS,
    ctx,
    options.mergeDestinationIp ?? true,
    false,
  );
  return { match: compiled.predicate, conditionCount: compiled.conditionCount };
}
