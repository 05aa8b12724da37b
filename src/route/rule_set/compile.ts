/**
 * A rule-set's rules as one predicate: the OR of its rules, each compiled by the route rule
 * compiler (so domain items become a DomainSet and IP items a CidrSet, the same fast matchers as
 * route rules). With `rule_set_ip_cidr_match_source` the IP items test the source address.
 */
import type { Predicate } from "../rules/types.ts";
import { anyOf, compileRule } from "../rules/compile.ts";
import type { PlainRule } from "./types.ts";

function toSource(rule: PlainRule): PlainRule {
  if (rule.type === "logical") return { ...rule, rules: rule.rules?.map(toSource) };
  if (!rule.ip_cidr) return rule;
  const { ip_cidr, ...rest } = rule;
  return { ...rest, source_ip_cidr: [...(rest.source_ip_cidr ?? []), ...ip_cidr] };
}

/** Compiles rules; `where` names the rule-set in error paths. */
export function compileRules(rules: readonly PlainRule[], where: string, matchSource = false): Predicate {
  return anyOf(rules.map((rule, i) =>
    compileRule((matchSource ? toSource(rule) : rule) as never, {
      path: `${where}/rules/${i}`,
      label: "rule-set rule",
    }).match
  ));
}
