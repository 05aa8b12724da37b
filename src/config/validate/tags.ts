/** Every tag namespace of a model, with duplicates reported. */
import type { Model } from "../model/mod.ts";
import { Report, TagSet } from "./report.ts";

export interface Tags {
  inbounds: TagSet;
  /** Outbounds and endpoints share one namespace. */
  outbounds: TagSet;
  dnsServers: TagSet;
  ruleSets: TagSet;
  httpClients: TagSet;
  providers: TagSet;
}

export function collectTags(model: Model, report: Report): Tags {
  const tags: Tags = {
    inbounds: new TagSet("inbound"),
    outbounds: new TagSet("outbound"),
    dnsServers: new TagSet("DNS server"),
    ruleSets: new TagSet("rule-set"),
    httpClients: new TagSet("HTTP client"),
    providers: new TagSet("outbound provider"),
  };
  model.inbounds.forEach((i, n) => tags.inbounds.add(i.tag, ["inbounds", n], report));
  model.outbounds.forEach((o, n) => tags.outbounds.add(o.tag, ["outbounds", n], report));
  model.endpoints.forEach((e, n) => tags.outbounds.add(e.tag, ["endpoints", n], report));
  model.dns.servers.forEach((s, n) => tags.dnsServers.add(s.tag, ["dns", "servers", n], report));
  model.route.rule_set.forEach((r, n) => tags.ruleSets.add(r.tag, ["route", "rule_set", n], report));
  model.http_clients.forEach((c, n) => tags.httpClients.add(c.tag, ["http_clients", n], report));
  model.outbound_providers.forEach((p, n) => tags.providers.add(p.tag, ["outbound_providers", n], report));
  return tags;
}
