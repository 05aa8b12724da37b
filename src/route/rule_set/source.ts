/**
 * Rule-set files in sing-box's `source` format: `{"version": N, "rules": [headless rules]}`.
 * Versions 1 to 4 are read alike (later versions only add item kinds); rules are checked with the
 * config model's headless-rule schema, so errors carry the JSON path inside the file.
 */
import { ConfigError } from "../../common/errors.ts";
import { HeadlessRule } from "../../config/model/rule_set.ts";
import { SRS_MAX_VERSION } from "./srs.ts";
import type { PlainRule, PlainRuleSet } from "./types.ts";

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => `/${String(p)}`).join("");
}

/** Validates parsed headless rules; `where` prefixes error paths (the file, or a config path). */
export function parseHeadlessRules(rules: unknown, where: string): PlainRule[] {
  if (!Array.isArray(rules)) throw new ConfigError(`${where}/rules`, "expected a list of rules");
  return rules.map((rule, i) => {
    const r = HeadlessRule.safeParse(rule);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new ConfigError(`${where}/rules/${i}${issuePath(issue.path)}`, issue.message);
    }
    return r.data as PlainRule;
  });
}

/** Parses a `source` rule-set text; `where` names the file in errors. */
export function parseSourceRuleSet(text: string, where: string): PlainRuleSet {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(where, `invalid JSON: ${(e as Error).message}`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new ConfigError(where, 'expected an object with "version" and "rules"');
  }
  const { version, rules } = doc as { version?: unknown; rules?: unknown };
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > SRS_MAX_VERSION) {
    throw new ConfigError(
      `${where}/version`,
      `unsupported rule-set version ${JSON.stringify(version)}: expected 1 to ${SRS_MAX_VERSION}`,
    );
  }
  return { version, rules: parseHeadlessRules(rules ?? [], where) };
}

/** Drops defaults and empty fields so decompiled output reads like a hand-written file. */
function tidy(rule: PlainRule): PlainRule {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rule)) {
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) continue;
    if (k === "type" && v === "default") continue;
    out[k] = k === "rules" ? (v as PlainRule[]).map(tidy) : v;
  }
  return out as PlainRule;
}

/** The `source` text of a rule-set (sing-box's `rule-set decompile`). */
export function formatSourceRuleSet(set: PlainRuleSet): string {
  return JSON.stringify({ version: set.version, rules: set.rules.map(tidy) }, null, 2) + "\n";
}
