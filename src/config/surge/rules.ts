/**
 * `[Rule]` lines → native route rules, one per line so each error stays at its line. IP rules
 * without `no-resolve` make Surge resolve the domain when they are reached: a `resolve` action
 * goes before the first one. RULE-SET and DOMAIN-SET files beside the profile become inline rule
 * sets (their lines converted here); URLs become remote rule sets in the Clash text format, which
 * has the same line syntax.
 */
import type { PolicyTarget } from "../clash/rules.ts";
import { logicalItems, type RuleLine, splitRuleLine } from "../clash/rule_line.ts";
import type { Json } from "../links/types.ts";
import type { YamlPath } from "../clash/yaml_source.ts";
import type { SurgeConversion } from "./context.ts";
import type { Line, Loc } from "./source.ts";

export interface RuleEnv {
  policy(name: string, loc: Loc): PolicyTarget | undefined;
  inboundsByPort(port: number): string[];
}

const IP_TYPES = new Set(["IP-CIDR", "IP-CIDR6", "GEOIP", "IP-ASN"]);
const PROTOCOLS: Record<string, Json> = {
  TCP: { network: ["tcp"] },
  UDP: { network: ["udp"] },
  HTTP: { protocol: ["http"] },
  HTTPS: { protocol: ["tls"] },
  QUIC: { protocol: ["quic"] },
  STUN: { protocol: ["stun"] },
};
const REFUSED: Record<string, string> = {
  "URL-REGEX": "matches HTTP requests (needs MITM)",
  "USER-AGENT": "matches HTTP requests (needs MITM)",
  SUBNET: "matches the network the device is on",
  "DEVICE-NAME": "matches Surge gateway devices",
  SCRIPT: "runs a script",
  "CELLULAR-RADIO": "matches the cellular radio",
  "HOSTNAME-TYPE": "is not supported",
  "DOMAIN-WILDCARD": "is not supported",
};

function ports(p: string, field: string, rangeField: string): Json {
  const single: number[] = [], ranges: string[] = [];
  for (const part of p.split(/[,/]/).map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    if (!m || Number(m[1]) > 65535 || (m[2] && Number(m[2]) > 65535)) {
      throw new Error(`invalid port "${part}"`);
    }
    if (m[2]) ranges.push(`${m[1]}:${m[2]}`);
    else single.push(Number(m[1]));
  }
  if (!single.length && !ranges.length) throw new Error("missing port");
  const out: Json = {};
  if (single.length) out[field] = single;
  if (ranges.length) out[rangeField] = ranges;
  return out;
}

/** The condition a rule line stands for; `sets` turns RULE-SET/DOMAIN-SET payloads into rule-set tags. */
export function condition(r: RuleLine, env: RuleEnv, sets: (r: RuleLine) => Json): Json {
  const p = r.payload;
  if (!p && !["AND", "OR", "NOT"].includes(r.type)) throw new Error(`${r.type} needs a value`);
  switch (r.type) {
    case "DOMAIN":
      return { domain: [p] };
    case "DOMAIN-SUFFIX":
      return { domain_suffix: [p.replace(/^\./, "")] };
    case "DOMAIN-KEYWORD":
      return { domain_keyword: [p] };
    case "IP-CIDR":
    case "IP-CIDR6":
      return { ip_cidr: [p] };
    case "SRC-IP":
      return { source_ip_cidr: [p.includes("/") ? p : p.includes(":") ? `${p}/128` : `${p}/32`] };
    case "GEOIP":
      return p.toUpperCase() === "LAN" ? { ip_is_private: true } : { geoip: [p.toLowerCase()] };
    case "IP-ASN":
      if (!/^(AS)?\d+$/i.test(p)) throw new Error(`invalid AS number "${p}"`);
      return { ip_asn: [p.replace(/^as/i, "")] };
    case "DEST-PORT":
    case "DST-PORT":
      return ports(p, "port", "port_range");
    case "SRC-PORT":
      return ports(p, "source_port", "source_port_range");
    case "IN-PORT": {
      const tags = /^\d+$/.test(p) ? env.inboundsByPort(Number(p)) : [];
      if (tags.length === 0) throw new Error(`no listener on port "${p}"`);
      return { inbound: tags };
    }
    case "PROTOCOL": {
      const c = PROTOCOLS[p.toUpperCase()];
      if (!c) {
        throw new Error(`protocol "${p}" is not supported: expected TCP, UDP, HTTP, HTTPS, QUIC or STUN`);
      }
      return c;
    }
    case "PROCESS-NAME":
      return p.includes("/") ? { process_path: [p] } : { process_name: [p] };
    case "RULE-SET":
    case "DOMAIN-SET":
      return sets(r);
    case "AND":
    case "OR":
    case "NOT": {
      const inner = logicalItems(p).map((item) => condition(splitRuleLine(item, false), env, sets));
      if (r.type === "NOT") {
        if (inner.length !== 1) throw new Error("NOT takes exactly one rule");
        return { type: "logical", mode: "and", rules: inner, invert: true };
      }
      return { type: "logical", mode: r.type.toLowerCase(), rules: inner };
    }
  }
  if (REFUSED[r.type]) throw new Error(`rule type "${r.type}" ${REFUSED[r.type]}`);
  throw new Error(`unknown rule type "${r.type}"`);
}

/** Does the line make Surge resolve the domain (an IP rule without no-resolve)? */
export function needsResolve(r: RuleLine): boolean {
  if (r.params.some((x) => x.toLowerCase() === "no-resolve")) return false;
  if (IP_TYPES.has(r.type) && r.payload.toUpperCase() !== "LAN") return true;
  if (r.type === "RULE-SET" && r.payload.toUpperCase() === "LAN") return true;
  if (r.type === "AND" || r.type === "OR" || r.type === "NOT") {
    try {
      return logicalItems(r.payload).some((i) => needsResolve(splitRuleLine(i, false)));
    } catch {
      return false;
    }
  }
  return false;
}

const OPTIONS = new Set(["no-resolve", "dns-failed", "extended-matching", "pre-matching", "notification"]);

export function convertRules(
  lines: Line[],
  cv: SurgeConversion,
  env: RuleEnv,
  sets: (r: RuleLine, loc: Loc) => Json,
): void {
  let resolved = false, final = false, sniff = false;
  const emit = (c: Json, target: PolicyTarget, path: YamlPath) => {
    const action = "outbound" in target
      ? { outbound: target.outbound }
      : { action: "reject", method: target.reject };
    cv.push(["route", "rules"], { ...c, ...action }, path);
  };
  for (const line of lines) {
    const path = cv.at(line.loc);
    let r: RuleLine;
    try {
      r = splitRuleLine(line.text);
    } catch (e) {
      cv.error(path, `invalid rule "${line.text.slice(0, 80)}": ${(e as Error).message}`);
      continue;
    }
    if (final) {
      cv.warn(path, "rule after FINAL never applies; ignored");
      continue;
    }
    if (!r.target) {
      cv.error(path, `invalid rule "${line.text.slice(0, 80)}": missing policy`);
      continue;
    }
    const bad = r.params.find((x) => !OPTIONS.has(x.toLowerCase()) && !/^notification-text=/i.test(x));
    if (bad) cv.warn(path, `rule option "${bad}" is ignored`);
    if (r.params.some((x) => x.toLowerCase() === "extended-matching")) {
      cv.warn(path, "extended-matching is ignored: the rule matches the connection's host only");
    }
    const t = env.policy(r.target, line.loc);
    if (r.type === "FINAL") {
      final = true;
      if (!t) continue;
      if ("outbound" in t) cv.set(["route", "final"], t.outbound, path);
      else emit({ network: ["tcp", "udp"] }, t, path);
      continue;
    }
    let cond: Json;
    try {
      cond = condition(r, env, (x) => sets(x, line.loc));
    } catch (e) {
      cv.error(path, `invalid rule "${line.text.slice(0, 80)}": ${(e as Error).message}`);
      continue;
    }
    if (!t) continue;
    if (!sniff && JSON.stringify(cond).includes('"protocol"')) {
      sniff = true;
      cv.push(["route", "rules"], { action: "sniff" }, path);
    }
    if (!resolved && needsResolve(r)) {
      resolved = true;
      cv.push(["route", "rules"], { action: "resolve" }, path);
    }
    emit(cond, t, path);
  }
}
