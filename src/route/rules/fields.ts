/** Reading rule fields: presence in sing-box's sense, and lists that tolerate a single value. */
import { ConfigError } from "../../common/errors.ts";
import { type CompileContext, ruleField, type RuleInput } from "./types.ts";

/**
 * Whether a rule field counts as set, as sing-box decides it (`len(list) > 0`, `bool == true`,
 * `string != ""`, `number > 0`, a non-empty map).
 */
export function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === "" || value === 0) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

function list(rule: RuleInput, field: string): unknown[] {
  const value = ruleField(rule, field);
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A list of strings (a lone string is a list of one). */
export function stringList(rule: RuleInput, field: string, ctx: CompileContext): string[] {
  const values = list(rule, field);
  values.forEach((v, i) => {
    if (typeof v !== "string") throw new ConfigError(`${ctx.path}/${field}/${i}`, "expected a string");
  });
  return values as string[];
}

/** A list of port numbers (0-65535). */
export function portList(rule: RuleInput, field: string, ctx: CompileContext): number[] {
  const values = list(rule, field);
  values.forEach((v, i) => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 65535) {
      throw new ConfigError(
        `${ctx.path}/${field}/${i}`,
        `invalid port ${JSON.stringify(v)}: expected 0 to 65535`,
      );
    }
  });
  return values as number[];
}
