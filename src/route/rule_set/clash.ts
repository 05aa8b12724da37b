/**
 * Clash/mihomo rule-provider bodies: `clash-yaml` (a `payload` list) and `clash-text` (one entry
 * a line, `#` comments), read by `behavior` (mihomo's meaning):
 * - `domain`: "example.com" exact, "+.example.com" the name and everything under it,
 *   ".example.com" everything under it, "*.example.com" exactly one label under it;
 * - `ipcidr`: prefixes or addresses;
 * - `classical`: rule lines ("DOMAIN-SUFFIX,example.com", "IP-CIDR,10.0.0.0/8,no-resolve").
 * `mrs` (mihomo's binary format) is refused.
 */
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../../common/errors.ts";
import type { PlainRule, PlainRuleSet } from "./types.ts";

export type Behavior = "domain" | "ipcidr" | "classical";

const CLASSICAL: Record<string, keyof PlainRule> = {
  "DOMAIN": "domain",
  "DOMAIN-SUFFIX": "domain_suffix",
  "DOMAIN-KEYWORD": "domain_keyword",
  "DOMAIN-REGEX": "domain_regex",
  "IP-CIDR": "ip_cidr",
  "IP-CIDR6": "ip_cidr",
  "SRC-IP-CIDR": "source_ip_cidr",
  "DST-PORT": "port",
  "SRC-PORT": "source_port",
  "PROCESS-NAME": "process_name",
  "PROCESS-PATH": "process_path",
  "NETWORK": "network",
};

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Entries to one rule (domain and ipcidr) or one rule per classical line, OR'd by the caller. */
export function clashEntriesToRules(
  entries: readonly string[],
  behavior: Behavior,
  where: string,
): PlainRule[] {
  if (behavior === "ipcidr") return [{ ip_cidr: [...entries] }];
  if (behavior === "domain") {
    const rule: Required<Pick<PlainRule, "domain" | "domain_suffix" | "domain_regex">> = {
      domain: [],
      domain_suffix: [],
      domain_regex: [],
    };
    for (const e of entries) {
      if (e.startsWith("+.")) rule.domain_suffix.push(e.slice(2));
      else if (e.startsWith(".")) rule.domain_suffix.push(e);
      else if (e.startsWith("*.")) rule.domain_regex.push(`^[^.]+\\.${escapeRegex(e.slice(2))}$`);
      else rule.domain.push(e);
    }
    const out: PlainRule = {};
    for (const [k, v] of Object.entries(rule)) if (v.length) (out as Record<string, unknown>)[k] = v;
    return [out];
  }
  const merged = new Map<string, unknown[]>();
  entries.forEach((line, i) => {
    const [kind, value] = line.split(",").map((s) => s.trim());
    const field = CLASSICAL[kind?.toUpperCase()];
    if (!field || value === undefined || value === "") {
      throw new ConfigError(`${where}/${i}`, `unsupported classical rule "${line}"`);
    }
    const list = merged.get(field) ?? [];
    if (field === "port" || field === "source_port") {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        throw new ConfigError(`${where}/${i}`, `invalid port "${value}"`);
      }
      list.push(n);
    } else list.push(field === "network" ? value.toLowerCase() : value);
    merged.set(field, list);
  });
  // Each classical line is its own rule: one rule per field keeps the OR semantics.
  return [...merged].map(([field, values]) => ({ [field]: values }) as PlainRule);
}

export function parseClashText(text: string, behavior: Behavior, where: string): PlainRuleSet {
  const entries = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
  return { version: 1, rules: clashEntriesToRules(entries, behavior, where) };
}

export function parseClashYaml(text: string, behavior: Behavior, where: string): PlainRuleSet {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new ConfigError(where, `invalid YAML: ${(e as Error).message}`);
  }
  const payload = (doc as { payload?: unknown } | null)?.payload;
  if (!Array.isArray(payload)) throw new ConfigError(`${where}/payload`, "expected a list");
  payload.forEach((v, i) => {
    if (typeof v !== "string") throw new ConfigError(`${where}/payload/${i}`, "expected a string");
  });
  return { version: 1, rules: clashEntriesToRules(payload as string[], behavior, `${where}/payload`) };
}
