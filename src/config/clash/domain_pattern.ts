/**
 * mihomo's domain patterns (hosts, fake-ip-filter, nameserver-policy keys) → rule conditions:
 * `+.a.com` is a.com and every subdomain, `*.a.com` one label below it, `.a.com` any subdomain,
 * `geosite:x`, `rule-set:x`, otherwise the exact name.
 */
type Json = Record<string, unknown>;

const escape = (s: string) => s.replace(/[.+^${}()|[\]\\?]/g, "\\$&");

export function domainCondition(pattern: string): Json {
  const p = pattern.trim();
  const lower = p.toLowerCase();
  if (lower.startsWith("geosite:")) {
    return { geosite: p.slice(8).split(",").map((s) => s.trim().toLowerCase()) };
  }
  if (lower.startsWith("rule-set:")) return { rule_set: p.slice(9).split(",").map((s) => s.trim()) };
  if (p.startsWith("+.")) return { domain_suffix: [p.slice(2)] };
  if (p.startsWith(".")) return { domain_regex: [`\\.${escape(p.slice(1))}$`] };
  if (p.includes("*")) return { domain_regex: [`^${p.split("*").map(escape).join("[^.]*")}$`] };
  return { domain: [p] };
}

/** Several patterns as one rule: conditions of the same kind merge (they are ORed in a rule). */
export function domainConditions(patterns: readonly string[]): Json[] {
  const merged: Record<string, string[]> = {};
  const separate: Json[] = [];
  for (const p of patterns) {
    const c = domainCondition(p);
    const [key, value] = Object.entries(c)[0] as [string, string[]];
    if (key === "rule_set" || key === "geosite") separate.push(c);
    else (merged[key] ??= []).push(...value);
  }
  return Object.keys(merged).length ? [merged, ...separate] : separate;
}
