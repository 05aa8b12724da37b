/** Clash `proxy-providers` → native `outbound_providers`; `rule-providers` → `route.rule_set`. */
import { clashProxyToOutbound } from "../links/clash_proxy.ts";
import { LinkError } from "../links/types.ts";
import { asBool, asInt, asList, asString, Conversion, isRecord } from "./conversion.ts";
import { domainCondition } from "./domain_pattern.ts";
import type { Policies } from "./groups.ts";
import type { YamlPath } from "./yaml_source.ts";

type Json = Record<string, unknown>;

/** Provider names, read before groups (which name them in `use`). */
export function proxyProviderNames(c: Json): string[] {
  return isRecord(c["proxy-providers"]) ? Object.keys(c["proxy-providers"]) : [];
}

export function convertProxyProviders(c: Json, cv: Conversion, policies: Policies): void {
  const all = c["proxy-providers"];
  if (!isRecord(all)) return;
  for (const [name, p] of Object.entries(all)) {
    const path: YamlPath = ["proxy-providers", name];
    if (!isRecord(p)) {
      cv.error(path, "expected a provider mapping");
      continue;
    }
    const out: Json = { tag: name };
    const type = asString(p.type);
    if (type === "http") {
      out.type = "remote";
      const url = asString(p.url);
      if (!url) cv.error([...path, "url"], 'missing "url"');
      out.url = url ?? "";
      if (asString(p.path)) out.path = asString(p.path);
      const interval = asInt(p.interval);
      if (interval) out.update_interval = `${interval}s`;
      const via = asString(p.proxy);
      if (via) {
        const tag = policies.member(via, [...path, "proxy"]);
        if (tag) out.download_detour = tag;
      }
    } else if (type === "file") {
      out.type = "local";
      out.path = asString(p.path) ?? "";
      if (!asString(p.path)) cv.error([...path, "path"], 'missing "path"');
    } else if (type === "inline") {
      out.type = "inline";
      out.outbounds = asList(p.payload).flatMap((d, i) => {
        try {
          return isRecord(d) ? [clashProxyToOutbound(d)] : [];
        } catch (e) {
          const key = e instanceof LinkError ? e.key : undefined;
          cv.error(key ? [...path, "payload", i, key] : [...path, "payload", i], (e as Error).message);
          return [];
        }
      });
    } else {
      cv.error([...path, "type"], `unknown provider type "${type}": expected http, file or inline`);
      continue;
    }
    const filter = asString(p.filter);
    if (filter) out.filter = filter.split("`").filter(Boolean);
    const exclude = asString(p["exclude-filter"]);
    if (exclude) out.exclude = exclude.split("`").filter(Boolean);
    const excludeType = asString(p["exclude-type"]);
    if (excludeType) out.exclude_type = excludeType.split("|").map((t) => t.trim().toLowerCase());
    const hc = p["health-check"];
    if (isRecord(hc) && asBool(hc.enable)) {
      const check: Json = { enabled: true };
      if (asString(hc.url)) check.url = asString(hc.url);
      if (asInt(hc.interval)) check.interval = `${asInt(hc.interval)}s`;
      if (asInt(hc.timeout)) check.timeout = `${asInt(hc.timeout)}ms`;
      if (asBool(hc.lazy) !== undefined) check.lazy = asBool(hc.lazy);
      out.health_check = check;
    }
    if (p.override !== undefined) cv.error([...path, "override"], "provider override is not supported");
    if (p.header !== undefined) cv.warn([...path, "header"], "download headers are ignored");
    cv.push(["outbound_providers"], out, path, { url: "url", path: "path", type: "type" });
  }
}

/** Rule-provider names whose behavior is ipcidr: rules naming them resolve domains first. */
export function ipRuleProviders(c: Json): Set<string> {
  const all = c["rule-providers"];
  if (!isRecord(all)) return new Set();
  return new Set(
    Object.entries(all).filter(([, p]) => isRecord(p) && p.behavior === "ipcidr").map(([n]) => n),
  );
}

export function convertRuleProviders(c: Json, cv: Conversion, policies: Policies): void {
  const all = c["rule-providers"];
  if (!isRecord(all)) return;
  for (const [name, p] of Object.entries(all)) {
    const path: YamlPath = ["rule-providers", name];
    if (!isRecord(p)) {
      cv.error(path, "expected a provider mapping");
      continue;
    }
    const behavior = asString(p.behavior) ?? "classical";
    if (!["domain", "ipcidr", "classical"].includes(behavior)) {
      cv.error([...path, "behavior"], `unknown behavior "${behavior}": expected domain, ipcidr or classical`);
      continue;
    }
    const type = asString(p.type);
    const format = asString(p.format) ?? "yaml";
    if (type === "inline") {
      const rules = inlineRules(asList(p.payload).map(String), behavior, [...path, "payload"], cv);
      cv.push(["route", "rule_set"], { type: "inline", tag: name, rules }, path);
      continue;
    }
    if (!["yaml", "text", "mrs"].includes(format)) {
      cv.error([...path, "format"], `unknown format "${format}": expected yaml, text or mrs`);
      continue;
    }
    const out: Json = { tag: name, format: format === "mrs" ? "mrs" : `clash-${format}`, behavior };
    if (type === "http") {
      Object.assign(out, { type: "remote", url: asString(p.url) ?? "" });
      const interval = asInt(p.interval);
      if (interval) out.update_interval = `${interval}s`;
      const via = asString(p.proxy);
      if (via) {
        const tag = policies.member(via, [...path, "proxy"]);
        if (tag) out.download_detour = tag;
      }
    } else if (type === "file") {
      Object.assign(out, { type: "local", path: asString(p.path) ?? "" });
    } else {
      cv.error([...path, "type"], `unknown provider type "${type}": expected http, file or inline`);
      continue;
    }
    cv.push(["route", "rule_set"], out, path, { url: "url", path: "path", format: "format" });
  }
}

/** An inline rule-provider's payload as headless rules. */
function inlineRules(payload: string[], behavior: string, path: YamlPath, cv: Conversion): Json[] {
  if (behavior === "domain") {
    const merged: Record<string, string[]> = {};
    for (const p of payload) {
      for (const [k, v] of Object.entries(domainCondition(p))) (merged[k] ??= []).push(...(v as string[]));
    }
    return Object.keys(merged).length ? [merged] : [];
  }
  if (behavior === "ipcidr") return payload.length ? [{ ip_cidr: payload }] : [];
  cv.error(path, "inline classical rule-providers are not supported yet");
  return [];
}
