/**
 * Route rule matching: compile a rule (sing-box fields) into `match(metadata)`, plus the condition
 * registry and the fast sets it is built on.
 */
export { allOf, anyOf, type CompileOptions, compileRule } from "./compile.ts";
export { ROUTE_CONDITIONS } from "./registry.ts";
export { unsupportedCondition } from "./unsupported.ts";
export { compileGoRegexp } from "./go_regexp.ts";
export { compileDomainSet } from "./domain.ts";
export { parsePortRange } from "./port.ts";
export type {
  CompileContext,
  ConditionDef,
  ConditionGroup,
  Predicate,
  RuleInput,
  RuleMatcher,
} from "./types.ts";
export { CidrSet, CidrSetBuilder } from "../../common/cidr_set.ts";
export { DomainSet, type DomainSetInit, KeywordMatcher, normalizeDomain } from "../../common/domain_set.ts";
