/** A route rule as one line of text, for logs and the APIs: `domain_suffix=a.com port=443 => route(proxy)`. */
import type { RuleAction } from "./decide.ts";

const ACTION_FIELDS = new Set([
  "type",
  "action",
  "outbound",
  "override_address",
  "override_port",
  "override_destination",
  "network_strategy",
  "network_type",
  "fallback_network_type",
  "fallback_delay",
  "udp_disable_domain_unmapping",
  "udp_connect",
  "udp_timeout",
  "tls_fragment",
  "tls_fragment_fallback_delay",
  "tls_record_fragment",
  "sniffer",
  "skip_rule_set",
  "timeout",
  "method",
  "no_drop",
  "server",
  "strategy",
  "disable_cache",
  "rewrite_ttl",
  "client_subnet",
]);

export function conditionText(rule: Record<string, unknown>): string {
  if (rule.type === "logical") {
    const inner = (rule.rules as Record<string, unknown>[]).map((r) => `(${conditionText(r)})`);
    const text = inner.join(` ${rule.mode} `);
    return rule.invert ? `!(${text})` : text;
  }
  const parts: string[] = [];
  for (const [k, v] of Object.entries(rule)) {
    if (ACTION_FIELDS.has(k) || k === "invert" || v === undefined) continue;
    const list = Array.isArray(v) ? v : [v];
    const shown = list.length > 3 ? `${list.slice(0, 3).join(",")},…(${list.length})` : list.join(",");
    parts.push(`${k}=${shown}`);
  }
  const text = parts.join(" ");
  return rule.invert ? `!(${text})` : text;
}

export function ruleText(rule: Record<string, unknown>): string {
  const a = rule as unknown as RuleAction;
  const arg = a.action === "route" || a.action === "bypass"
    ? a.outbound ?? ""
    : a.action === "reject"
    ? a.method ?? ""
    : a.action === "sniff"
    ? (a.sniffer ?? []).join(",")
    : "";
  return `${conditionText(rule)} => ${a.action}(${arg})`;
}
