/** Cross-references of `route`: final, rules, actions, interface options. */
import type { Model } from "../model/mod.ts";
import { ROUTE_ACTION_FIELD_NAMES, ROUTE_ACTION_FIELDS } from "../model/route_rule.ts";
import type { Report } from "./report.ts";
import { checkActionFields, checkConditionRefs, hasCondition } from "./rules.ts";
import type { Tags } from "./tags.ts";

/** Actions that end matching for every connection they see. */
const TERMINAL = new Set(["route", "reject", "hijack-dns"]);

const SNIFFERS = ["http", "tls", "quic", "stun", "dns", "bittorrent", "dtls", "ssh", "rdp", "ntp"];

export function checkRoute(model: Model, tags: Tags, report: Report): void {
  const route = model.route;
  tags.outbounds.need(route.final, ["route", "final"], report);
  if (route.default_domain_resolver) {
    tags.dnsServers.need(route.default_domain_resolver.server, ["route", "default_domain_resolver"], report);
  }
  if (route.auto_detect_interface && route.default_interface !== undefined) {
    report.error(
      ["route", "default_interface"],
      'conflicts with "auto_detect_interface" (also turned on by a TUN inbound with "auto_route"): set one of them',
    );
  }
  if (route.default_network_strategy !== undefined && !route.auto_detect_interface) {
    report.error(["route", "default_network_strategy"], 'requires "auto_detect_interface"');
  }
  route.rule_set.forEach((set, i) => {
    if (set.type !== "remote") return;
    tags.outbounds.need(set.download_detour, ["route", "rule_set", i, "download_detour"], report);
    if (typeof set.http_client === "string") {
      tags.httpClients.need(set.http_client, ["route", "rule_set", i, "http_client"], report);
    }
  });

  route.rules.forEach((rule, i) => {
    const path = ["route", "rules", i];
    const r = rule as unknown as Record<string, unknown>;
    checkActionFields(r, rule.action, ROUTE_ACTION_FIELDS, ROUTE_ACTION_FIELD_NAMES, path, report);
    const terminal = TERMINAL.has(rule.action) || (rule.action === "bypass" && rule.outbound !== undefined);
    if (terminal && !hasCondition(r as never, ROUTE_ACTION_FIELD_NAMES)) {
      report.error(
        path,
        `a "${rule.action}" rule needs at least one condition; the catch-all is route.final`,
      );
    }
    if (rule.action === "route" && rule.outbound === undefined) {
      report.error([...path, "outbound"], "missing required field");
    }
    tags.outbounds.need(rule.outbound, [...path, "outbound"], report);
    tags.dnsServers.need(rule.server, [...path, "server"], report);
    tags.ruleSets.needAll(rule.skip_rule_set, [...path, "skip_rule_set"], report);
    if (
      rule.override_destination === "at_sniff" && (rule.action === "route" || rule.action === "route-options")
    ) {
      report.error([...path, "override_destination"], '"at_sniff" is valid for the "sniff" action only');
    }
    rule.sniffer?.forEach((s, n) => {
      if (!SNIFFERS.includes(s)) {
        report.error(
          [...path, "sniffer", n],
          `unknown protocol "${s}": expected one of ${SNIFFERS.map((p) => `"${p}"`).join(", ")}`,
        );
      }
    });
    if (rule.method === "drop" && rule.no_drop !== undefined) {
      report.error([...path, "no_drop"], 'has no effect with "method": "drop"');
    }
    checkConditionRefs(r as never, path, {
      inbounds: tags.inbounds,
      ruleSets: tags.ruleSets,
      preferredBy: tags.outbounds,
    }, report);
  });
}
