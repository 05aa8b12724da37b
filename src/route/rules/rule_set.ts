/**
 * `rule_set`: matches when any named rule-set matches (src/route/rule_set). With
 * `rule_set_ip_cidr_match_source` the sets' `ip_cidr` items test the source address.
 *
 * It is an item of its own (ANDed with the rule's other groups); sing-box instead folds the set's
 * address items into the rule's address groups, which differs only for rules that mix `rule_set`
 * with their own address items.
 */
import { ConfigError, UnsupportedError } from "../../common/errors.ts";
import { stringList } from "./fields.ts";
import { ruleField } from "./types.ts";
import type { ConditionDef, Predicate } from "./types.ts";

export const ruleSetCondition: ConditionDef = {
  fields: ["rule_set"],
  group: "item",
  compile(rule, ctx): Predicate {
    const sets = ctx.ruleSets;
    if (!sets) throw new UnsupportedError(`${ctx.label} condition "rule_set" needs loaded rule-sets here`);
    const source = ruleField(rule, "rule_set_ip_cidr_match_source") === true;
    const preds = stringList(rule, "rule_set", ctx).map((tag, i) => {
      const set = sets.get(tag);
      if (!set) throw new ConfigError(`${ctx.path}/rule_set/${i}`, `unknown rule-set "${tag}"`);
      return source ? set.matchSource : set.match;
    });
    if (preds.length === 1) return preds[0];
    return (m) => {
      for (let i = 0; i < preds.length; i++) if (preds[i](m)) return true;
      return false;
    };
  },
};
