/** Cross-references of dialers: detours, group members, resolvers, HTTP clients; detour cycles. */
import type { PathSegment } from "../json/pointer.ts";
import type { DialFields, Model } from "../model/mod.ts";
import { findCycle } from "./dns.ts";
import type { Report } from "./report.ts";
import { checkRegex } from "./rules.ts";
import type { Tags } from "./tags.ts";

interface Edge {
  to: string;
  path: PathSegment[];
}

/** Dial fields of an object: detour (outbound) and domain_resolver (DNS server). */
function checkDial(d: Partial<DialFields>, path: PathSegment[], tags: Tags, report: Report): void {
  tags.outbounds.need(d.detour, [...path, "detour"], report);
  if (d.domain_resolver) tags.dnsServers.need(d.domain_resolver.server, [...path, "domain_resolver"], report);
}

export function checkOutbounds(model: Model, tags: Tags, report: Report): void {
  const edges = new Map<string, Edge[]>();
  const addEdge = (from: string, e: Edge) => edges.set(from, [...(edges.get(from) ?? []), e]);

  model.outbounds.forEach((o, i) => {
    const path: PathSegment[] = ["outbounds", i];
    const fields = o as unknown as Record<string, unknown>;
    checkDial(fields as Partial<DialFields>, path, tags, report);
    if (typeof fields.detour === "string") {
      if (fields.detour === o.tag) {
        report.error([...path, "detour"], "an outbound cannot detour through itself");
      } else addEdge(o.tag, { to: fields.detour, path: [...path, "detour"] });
    }
    // Groups (described in later issues) name members and providers; checked generically here.
    const members = fields.outbounds;
    if (Array.isArray(members)) {
      members.forEach((m, n) => {
        tags.outbounds.need(m, [...path, "outbounds", n], report);
        if (m === o.tag) report.error([...path, "outbounds", n], "a group cannot contain itself");
        else addEdge(o.tag, { to: m, path: [...path, "outbounds", n] });
      });
    }
    if (Array.isArray(fields.providers)) {
      tags.providers.needAll(fields.providers as string[], [...path, "providers"], report);
    }
    if (typeof fields.default === "string") tags.outbounds.need(fields.default, [...path, "default"], report);
  });

  const reported = new Set<string>();
  model.outbounds.forEach((o) => {
    const cycle = findCycle(o.tag, (t) => (edges.get(t) ?? []).map((e) => e.to));
    if (!cycle || cycle.length <= 2 || cycle.some((t) => reported.has(t))) return;
    cycle.forEach((t) => reported.add(t));
    const edge = edges.get(o.tag)!.find((e) => e.to === cycle[1])!;
    report.error(edge.path, `detour cycle: ${cycle.map((t) => `"${t}"`).join(" -> ")}`);
  });

  model.inbounds.forEach((inbound, i) => {
    if (inbound.detour === undefined) return;
    if (inbound.detour === inbound.tag) {
      report.error(["inbounds", i, "detour"], "an inbound cannot forward to itself");
    } else tags.inbounds.need(inbound.detour, ["inbounds", i, "detour"], report);
  });
  model.dns.servers.forEach((s, i) =>
    checkDial(s as Partial<DialFields>, ["dns", "servers", i], tags, report)
  );
  if (model.ntp) checkDial(model.ntp, ["ntp"], tags, report);
  model.http_clients.forEach((c, i) => checkDial(c, ["http_clients", i], tags, report));
  model.outbound_providers.forEach((p, i) => {
    const path: PathSegment[] = ["outbound_providers", i];
    if (p.type === "remote") {
      tags.outbounds.need(p.download_detour, [...path, "download_detour"], report);
      if (typeof p.http_client === "string") {
        tags.httpClients.need(p.http_client, [...path, "http_client"], report);
      }
    }
    if (p.type === "inline") {
      p.outbounds.forEach((o, n) =>
        checkDial(o as Partial<DialFields>, [...path, "outbounds", n], tags, report)
      );
    }
    p.filter?.forEach((re, n) => checkRegex(re, [...path, "filter", n], report));
    p.exclude?.forEach((re, n) => checkRegex(re, [...path, "exclude", n], report));
  });
}
