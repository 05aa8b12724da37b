/**
 * Clash `rules` (and `sub-rules`) → native route rules. One native rule per line keeps each error
 * at its line. IP rules without `no-resolve` make mihomo resolve the domain once it reaches them:
 * a `resolve` action is placed before the first such rule, which is the same order of events.
 */
import { asList, asString, Conversion, isRecord } from "./conversion.ts";
import { logicalItems, type RuleLine, splitRuleLine } from "./rule_line.ts";
import type { YamlPath } from "./yaml_source.ts";

type Json = Record<string, unknown>;

/** What a rule's target becomes: a route to an outbound tag, or a reject. */
export type PolicyTarget = { outbound: string } | { reject: "default" | "drop" };

export interface RuleEnv {
  /** Resolves a policy name (proxy, group, DIRECT, REJECT...) or reports it and returns undefined. */
  policy(name: string, path: YamlPath): PolicyTarget | undefined;
  /** Inbound tags by listen port and by Clash inbound type, for IN-PORT and IN-TYPE. */
  inboundsByPort(port: number): string[];
  inboundsByType(type: string): string[];
  /** Rule-provider names whose behavior is ipcidr (they match IPs, so they resolve too). */
  ipRuleSets: ReadonlySet<string>;
}

const IP_TYPES = new Set(["IP-CIDR", "IP-CIDR6", "IP-SUFFIX", "GEOIP", "IP-ASN"]);
const MAX_SUB_RULE_DEPTH = 8;

/** A condition the line's type maps to; throws a message when it cannot be mapped. */
function condition(r: RuleLine, env: RuleEnv, depth: number, subRules: Json): Json {
  const p = r.payload;
  const need = () => {
    if (!p) throw new Error(`${r.type} needs a value`);
  };
  const ports = (field: string, rangeField: string) => {
    need();
    const single: number[] = [], ranges: string[] = [];
    for (const part of p.split(/[/,]/).map((s) => s.trim()).filter(Boolean)) {
      const m = /^(\d+)(?:-(\d+))?$/.exec(part);
      if (!m || Number(m[1]) > 65535 || (m[2] && Number(m[2]) > 65535)) {
        throw new Error(`invalid port "${part}"`);
      }
      if (m[2]) ranges.push(`${m[1]}:${m[2]}`);
      else single.push(Number(m[1]));
    }
    const out: Json = {};
    if (single.length) out[field] = single;
    if (ranges.length) out[rangeField] = ranges;
    return out;
  };
  const src = r.params.some((x) => x.toLowerCase() === "src");
  switch (r.type) {
    case "DOMAIN":
      need();
      return { domain: [p] };
    case "DOMAIN-SUFFIX":
      need();
      return { domain_suffix: [p.replace(/^\./, "")] };
    case "DOMAIN-KEYWORD":
      need();
      return { domain_keyword: [p] };
    case "DOMAIN-REGEX":
      need();
      return { domain_regex: [p] };
    case "DOMAIN-WILDCARD":
      need();
      return { domain_regex: [wildcardRegex(p)] };
    case "GEOSITE":
      need();
      return { geosite: [p.toLowerCase()] };
    case "GEOIP":
      need();
      if (p.toUpperCase() === "LAN") return src ? { source_ip_is_private: true } : { ip_is_private: true };
      if (src) throw new Error("GEOIP with src is not supported");
      return { geoip: [p.toLowerCase()] };
    case "IP-CIDR":
    case "IP-CIDR6":
      need();
      return src ? { source_ip_cidr: [p] } : { ip_cidr: [p] };
    case "IP-SUFFIX":
      need();
      return src ? { source_ip_suffix: [p] } : { ip_suffix: [p] };
    case "SRC-IP-SUFFIX":
      need();
      return { source_ip_suffix: [p] };
    case "SRC-IP-CIDR":
      need();
      return { source_ip_cidr: [p] };
    case "IP-ASN":
      need();
      return { ip_asn: [p] };
    case "DST-PORT":
      return ports("port", "port_range");
    case "SRC-PORT":
      return ports("source_port", "source_port_range");
    case "IN-PORT": {
      need();
      const tags = env.inboundsByPort(Number(p));
      if (!/^\d+$/.test(p) || tags.length === 0) throw new Error(`no inbound listens on port "${p}"`);
      return { inbound: tags };
    }
    case "IN-TYPE": {
      need();
      const tags = p.split("/").flatMap((t) => env.inboundsByType(t.trim().toUpperCase()));
      if (tags.length === 0) throw new Error(`no inbound of type "${p}"`);
      return { inbound: tags };
    }
    case "IN-USER":
      need();
      return { auth_user: p.split("/").map((s) => s.trim()) };
    case "IN-NAME":
      need();
      return { inbound: p.split("/").map((s) => s.trim()) };
    case "NETWORK": {
      const n = p.toLowerCase();
      if (n !== "tcp" && n !== "udp") throw new Error(`invalid network "${p}": expected TCP or UDP`);
      return { network: [n] };
    }
    case "PROCESS-NAME":
      need();
      return { process_name: [p] };
    case "PROCESS-PATH":
      need();
      return { process_path: [p] };
    case "PROCESS-NAME-REGEX":
      need();
      return { process_name_regex: [p] };
    case "PROCESS-PATH-REGEX":
      need();
      return { process_path_regex: [p] };
    case "UID":
      need();
      if (!/^\d+$/.test(p)) throw new Error(`invalid uid "${p}"`);
      return { user_id: [Number(p)] };
    case "RULE-SET":
      need();
      return src ? { rule_set: [p], rule_set_ip_cidr_match_source: true } : { rule_set: [p] };
    case "AND":
    case "OR":
    case "NOT": {
      const inner = logicalItems(p).map((item) =>
        condition(splitRuleLine(item, false), env, depth, subRules)
      );
      if (r.type === "NOT") {
        if (inner.length !== 1) throw new Error("NOT takes exactly one rule");
        return { type: "logical", mode: "and", rules: inner, invert: true };
      }
      return { type: "logical", mode: r.type.toLowerCase(), rules: inner };
    }
    default:
      throw new Error(`rule type "${r.type}" is not supported`);
  }
}

/** `*.example.com` style wildcards (`*` one label part, `?` one character) → a regular expression. */
function wildcardRegex(p: string): string {
  const esc = p.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^.]*").replaceAll("?", ".");
  return `^${esc}$`;
}

/** Does the condition (or a nested one) match on IPs that mihomo would resolve for? */
function needsResolve(r: RuleLine, env: RuleEnv): boolean {
  if (r.params.some((x) => x.toLowerCase() === "no-resolve")) return false;
  if (r.params.some((x) => x.toLowerCase() === "src")) return false;
  if (IP_TYPES.has(r.type) && r.payload.toUpperCase() !== "LAN") return true;
  if (r.type === "RULE-SET") return env.ipRuleSets.has(r.payload);
  if (r.type === "AND" || r.type === "OR" || r.type === "NOT") {
    try {
      return logicalItems(r.payload).some((i) => needsResolve(splitRuleLine(i, false), env));
    } catch {
      return false;
    }
  }
  return false;
}

export function convertRules(c: Json, cv: Conversion, env: RuleEnv): void {
  const subRules = isRecord(c["sub-rules"]) ? c["sub-rules"] : {};
  let resolved = false;
  let matched = false;
  const emit = (line: string, path: YamlPath, prefix: Json | undefined, depth: number) => {
    let r: RuleLine;
    try {
      r = splitRuleLine(line);
    } catch (e) {
      return cv.error(path, `invalid rule "${line}": ${(e as Error).message}`);
    }
    if (matched && depth === 0) return cv.warn(path, "rule after MATCH never applies; ignored");
    if (!r.target) return cv.error(path, `invalid rule "${line}": missing target`);
    if (r.type === "MATCH" || r.type === "FINAL") {
      const t = env.policy(r.target, path);
      if (!t) return;
      if (prefix) return emitRule({ ...prefix }, t, path);
      matched = true;
      if ("outbound" in t) cv.set(["route", "final"], t.outbound, path);
      else emitRule({ network: ["tcp", "udp"] }, t, path);
      return;
    }
    if (r.type === "SUB-RULE") {
      if (depth >= MAX_SUB_RULE_DEPTH) return cv.error(path, "SUB-RULE nesting is too deep");
      const list = subRules[r.target];
      if (!Array.isArray(list)) return cv.error(path, `unknown sub-rule "${r.target}"`);
      let cond: Json;
      try {
        cond = condition(splitRuleLine(r.payload.slice(1, -1), false), env, depth, subRules);
      } catch (e) {
        return cv.error(path, `invalid rule "${line}": ${(e as Error).message}`);
      }
      const joined = prefix ? { type: "logical", mode: "and", rules: [prefix, cond] } : cond;
      list.forEach((sub, i) => {
        const text = asString(sub);
        if (text === undefined) return cv.error(["sub-rules", r.target!, i], "expected a rule line");
        emit(text, ["sub-rules", r.target!, i], joined, depth + 1);
      });
      return;
    }
    let cond: Json;
    try {
      cond = condition(r, env, depth, subRules);
    } catch (e) {
      return cv.error(path, `invalid rule "${line}": ${(e as Error).message}`);
    }
    const t = env.policy(r.target, path);
    if (!t) return;
    if (!resolved && needsResolve(r, env)) {
      resolved = true;
      cv.push(["route", "rules"], { action: "resolve" }, path);
    }
    emitRule(prefix ? { type: "logical", mode: "and", rules: [prefix, cond] } : cond, t, path);
  };
  const emitRule = (cond: Json, t: PolicyTarget, path: YamlPath) => {
    const action = "outbound" in t ? { outbound: t.outbound } : { action: "reject", method: t.reject };
    cv.push(["route", "rules"], { ...cond, ...action }, path);
  };
  asList(c.rules).forEach((line, i) => {
    const text = asString(line);
    if (text === undefined) {
      cv.error(["rules", i], 'expected a rule line such as "DOMAIN-SUFFIX,example.com,DIRECT"');
    } else emit(text, ["rules", i], undefined, 0);
  });
}
