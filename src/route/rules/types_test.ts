/** The config model's route rules must be accepted by compileRule as they are. */
import type { RouteRule, RouteRuleCondition } from "../../config/model/route_rule.ts";
import type { RuleInput } from "./types.ts";

Deno.test("config model route rules are RuleInput", () => {
  const accept = (_: RuleInput) => {};
  const fromModel = (r: RouteRule, nested: RouteRuleCondition) => {
    accept(r);
    accept(nested);
  };
  void fromModel;
});
