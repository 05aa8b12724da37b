/** Cross-references of `dns`: servers named by rules, final, members and resolvers. */
import type { PathSegment } from "../json/pointer.ts";
import { DNS_ACTION_FIELDS, dnsActionShape } from "../model/dns_rule.ts";
import type { Model } from "../model/mod.ts";
import type { Report } from "./report.ts";
import { checkActionFields, checkConditionRefs } from "./rules.ts";
import type { Tags } from "./tags.ts";

const DNS_ACTION_FIELD_NAMES = Object.keys(dnsActionShape).filter((k) => k !== "action");

export function checkDns(model: Model, tags: Tags, report: Report): void {
  const dns = model.dns;
  tags.dnsServers.need(dns.final, ["dns", "final"], report);
  dns.servers.forEach((server, i) => {
    const path = ["dns", "servers", i];
    if (server.type === "race" || server.type === "sequential") {
      server.servers.forEach((member, n) => {
        if (member === server.tag) report.error([...path, "servers", n], "a server cannot be its own member");
        else tags.dnsServers.need(member, [...path, "servers", n], report);
      });
    }
  });
  memberCycles(model, report);

  const evaluated = new Set<string>();
  let anyEvaluate = false;
  dns.rules.forEach((rule, i) => {
    const path: PathSegment[] = ["dns", "rules", i];
    const r = rule as unknown as Record<string, unknown>;
    checkActionFields(r, rule.action, DNS_ACTION_FIELDS, DNS_ACTION_FIELD_NAMES, path, report);
    if ((rule.action === "route" || rule.action === "evaluate") && rule.server === undefined) {
      report.error([...path, "server"], "missing required field");
    }
    tags.dnsServers.need(rule.server, [...path, "server"], report);
    if (
      rule.type === "default" && typeof rule.match_response === "string" &&
      !evaluated.has(rule.match_response)
    ) {
      report.error(
        [...path, "match_response"],
        `unknown evaluate tag "${rule.match_response}" (no earlier "evaluate" rule has it)`,
      );
    }
    if (rule.type === "default" && rule.match_response === true && !anyEvaluate) {
      report.error([...path, "match_response"], 'no earlier rule has the "evaluate" action');
    }
    if (rule.action === "respond" && !anyEvaluate) {
      report.error([...path, "action"], 'a "respond" rule needs an earlier rule with the "evaluate" action');
    }
    if (rule.action === "evaluate") {
      anyEvaluate = true;
      if (rule.tag !== undefined) evaluated.add(rule.tag);
    }
    checkConditionRefs(r as never, path, {
      inbounds: tags.inbounds,
      ruleSets: tags.ruleSets,
      preferredBy: tags.dnsServers,
      outbounds: tags.outbounds,
    }, report);
  });
}

/** `race` and `sequential` servers must not contain themselves through other members. */
function memberCycles(model: Model, report: Report): void {
  const members = new Map<string, string[]>();
  for (const s of model.dns.servers) {
    if (s.type === "race" || s.type === "sequential") members.set(s.tag, s.servers);
  }
  const reported = new Set<string>();
  model.dns.servers.forEach((s, i) => {
    if (!members.has(s.tag)) return;
    const cycle = findCycle(s.tag, (t) => members.get(t) ?? []);
    if (cycle && cycle.length > 2 && !cycle.some((t) => reported.has(t))) {
      cycle.forEach((t) => reported.add(t));
      report.error(
        ["dns", "servers", i, "servers"],
        `server cycle: ${cycle.map((t) => `"${t}"`).join(" -> ")}`,
      );
    }
  });
}

/** A path from `start` back to itself, when there is one. */
export function findCycle(start: string, next: (tag: string) => readonly string[]): string[] | undefined {
  const seen = new Set<string>();
  const walk = (tag: string, trail: string[]): string[] | undefined => {
    for (const n of next(tag)) {
      if (n === start) return [...trail, n];
      if (seen.has(n)) continue;
      seen.add(n);
      const found = walk(n, [...trail, n]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}
