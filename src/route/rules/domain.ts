/**
 * `domain`, `domain_suffix`, `domain_keyword` and `domain_regex` as one condition: sing-box puts
 * all four in the destination-address group (route/rule/rule_default.go), where they OR with each
 * other and with `ip_cidr`/`ip_is_private`. They look at the requested domain, else the sniffed
 * one (`domainOf`), lowercased with a trailing dot dropped.
 *
 * Differences from sing-box, all in the lenient direction: rule values are lowercased too (sing-box
 * compares them as written, so an uppercase item never matches there), a trailing dot is ignored
 * on both sides, and regexes run on JS RegExp after the translation in go_regexp.ts.
 */
import { domainOf } from "../../adapter/metadata.ts";
import { ConfigError } from "../../common/errors.ts";
import { DomainSet } from "../../common/domain_set.ts";
import { stringList } from "./fields.ts";
import { compileGoRegexp } from "./go_regexp.ts";
import type { CompileContext, ConditionDef, Predicate, RuleInput } from "./types.ts";

function nonEmpty(rule: RuleInput, field: string, ctx: CompileContext): string[] {
  const values = stringList(rule, field, ctx);
  values.forEach((v, i) => {
    // sing-box: "domain: empty item is not allowed" (rule_item_domain.go).
    if (v === "") throw new ConfigError(`${ctx.path}/${field}/${i}`, "empty item is not allowed");
  });
  return values;
}

/** Builds the DomainSet of a rule's four domain fields. */
export function compileDomainSet(rule: RuleInput, ctx: CompileContext): DomainSet {
  const regex = stringList(rule, "domain_regex", ctx).map((pattern, i) => {
    try {
      return compileGoRegexp(pattern);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      throw new ConfigError(
        `${ctx.path}/domain_regex/${i}`,
        `invalid regular expression "${pattern}": ${detail}`,
      );
    }
  });
  return new DomainSet({
    domain: nonEmpty(rule, "domain", ctx),
    suffix: nonEmpty(rule, "domain_suffix", ctx),
    keyword: stringList(rule, "domain_keyword", ctx),
    regex,
  });
}

export const domainCondition: ConditionDef = {
  fields: ["domain", "domain_suffix", "domain_keyword", "domain_regex"],
  group: "destination_address",
  compile(rule, ctx): Predicate {
    const set = compileDomainSet(rule, ctx);
    return (m) => {
      const name = domainOf(m);
      return name !== undefined && name !== "" && set.has(name);
    };
  },
};
