/** Shared checks of route and DNS rules: conditions present, action fields on their action, references. */
import type { PathSegment } from "../json/pointer.ts";
import { CONDITION_MODIFIERS } from "../model/rule_conditions.ts";
import type { Report, TagSet } from "./report.ts";

type Rule = Record<string, unknown> & { type: "default" | "logical"; rules?: Rule[] };

/** Action fields a rule sets that its action does not take. */
export function checkActionFields(
  rule: Record<string, unknown>,
  action: string,
  owners: Readonly<Record<string, readonly string[]>>,
  fieldNames: readonly string[],
  path: readonly PathSegment[],
  report: Report,
): void {
  const mine = owners[action] ?? [];
  for (const field of fieldNames) {
    if (rule[field] === undefined || mine.includes(field)) continue;
    const belongs = Object.keys(owners).filter((a) => owners[a].includes(field)).map((a) => `"${a}"`);
    const names = belongs.length === 1
      ? belongs[0]
      : `${belongs.slice(0, -1).join(", ")} or ${belongs.at(-1)}`;
    const to = `the ${names} action`;
    report.error([...path, field], `field belongs to ${to}, not "${action}"`);
  }
}

/** Whether a rule has at least one condition (a logical rule always does). */
export function hasCondition(rule: Rule, actionFields: readonly string[]): boolean {
  if (rule.type === "logical") return true;
  return Object.entries(rule).some(([k, v]) =>
    v !== undefined && k !== "action" && !actionFields.includes(k) && !CONDITION_MODIFIERS.includes(k) &&
    !(Array.isArray(v) && v.length === 0)
  );
}

export interface ConditionRefs {
  inbounds: TagSet;
  ruleSets: TagSet;
  /** What `preferred_by` names: outbounds (route rules) or DNS servers (DNS rules). */
  preferredBy: TagSet;
  /** DNS rules' deprecated `outbound` condition. */
  outbounds?: TagSet;
}

/** References made by conditions, in a rule and its nested rules. */
export function checkConditionRefs(
  rule: Rule,
  path: readonly PathSegment[],
  refs: ConditionRefs,
  report: Report,
) {
  if (rule.type === "logical") {
    rule.rules?.forEach((r, i) => checkConditionRefs(r, [...path, "rules", i], refs, report));
    return;
  }
  refs.inbounds.needAll(rule.inbound as string[] | undefined, [...path, "inbound"], report);
  refs.ruleSets.needAll(rule.rule_set as string[] | undefined, [...path, "rule_set"], report);
  refs.preferredBy.needAll(rule.preferred_by as string[] | undefined, [...path, "preferred_by"], report);
  if (refs.outbounds) {
    refs.outbounds.needAll(rule.outbound as string[] | undefined, [...path, "outbound"], report);
  }
  for (
    const field of [
      "domain_regex",
      "process_path_regex",
      "package_name_regex",
      "process_name_regex",
      "wifi_ssid_regex",
      "wifi_bssid_regex",
    ]
  ) {
    (rule[field] as string[] | undefined)?.forEach((re, i) => checkRegex(re, [...path, field, i], report));
  }
}

export function checkRegex(source: string, path: readonly PathSegment[], report: Report): void {
  try {
    new RegExp(source);
  } catch (e) {
    report.error(path, `invalid regular expression ${JSON.stringify(source)}: ${(e as Error).message}`);
  }
}
