/** Every entry of the reference-field table, applied to a sample configuration. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { checkConfig } from "../mod.ts";
import { matchPaths } from "./prepass.ts";
import { REFERENCE_FIELDS, referenceMessage } from "./reference_fields.ts";

type Json = Record<string, unknown>;
const base = (extra: Json): Json => ({
  inbounds: [{ type: "mixed", listen_port: 2080 }],
  outbounds: [{ type: "direct" }],
  ...extra,
});
const inbound = (fields: Json, type = "mixed") =>
  base({ inbounds: [{ type, listen_port: 2080, ...fields }] });
const outbound = (fields: Json, type = "direct") =>
  base({ outbounds: [{ type, ...(type === "direct" ? {} : { server: "a", server_port: 1 }), ...fields }] });
const dnsRule = (fields: Json) =>
  base({ dns: { servers: [{ type: "local" }], rules: [{ domain: "a", server: "local", ...fields }] } });
const routeRule = (fields: Json) =>
  base({ route: { rules: [{ domain: "a", outbound: "direct", ...fields }] } });

/** Samples per table id: a configuration and the path the finding is reported at. */
const SAMPLES: Record<string, [Json, string][]> = {
  certificate_providers: [[base({ certificate_providers: [{ type: "acme" }] }), "/certificate_providers"]],
  network_namespaces: [[base({ network_namespaces: [] }), "/network_namespaces"]],
  netns: [
    [inbound({ netns: "n" }), "/inbounds/0/netns"],
    [outbound({ netns: "n" }), "/outbounds/0/netns"],
    [base({ dns: { servers: [{ type: "udp", server: "1.1.1.1", netns: "n" }] } }), "/dns/servers/0/netns"],
    [base({ ntp: { netns: "n" } }), "/ntp/netns"],
  ],
  tcp_multi_path: [[inbound({ tcp_multi_path: true }), "/inbounds/0/tcp_multi_path"], [
    outbound({ tcp_multi_path: true }),
    "/outbounds/0/tcp_multi_path",
  ]],
  udp_fragment: [[inbound({ udp_fragment: true }), "/inbounds/0/udp_fragment"], [
    base({ http_clients: [{ tag: "c", udp_fragment: true }] }),
    "/http_clients/0/udp_fragment",
  ]],
  bind_address_no_port: [[outbound({ bind_address_no_port: true }), "/outbounds/0/bind_address_no_port"]],
  "domain_strategy (dial)": [[
    outbound({ domain_strategy: "ipv4_only" }, "socks"),
    "/outbounds/0/domain_strategy",
  ]],
  set_system_proxy: [[inbound({ set_system_proxy: true }), "/inbounds/0/set_system_proxy"], [
    inbound({ set_system_proxy: true }, "http"),
    "/inbounds/0/set_system_proxy",
  ]],
  "sniff (inbound)": [[inbound({ sniff: true }), "/inbounds/0/sniff"]],
  sniff_override_destination: [[
    inbound({ sniff_override_destination: true }),
    "/inbounds/0/sniff_override_destination",
  ]],
  sniff_timeout: [[inbound({ sniff_timeout: "1s" }), "/inbounds/0/sniff_timeout"]],
  "domain_strategy (inbound)": [[inbound({ domain_strategy: "prefer_ipv6" }), "/inbounds/0/domain_strategy"]],
  "udp_disable_domain_unmapping (inbound)": [[
    inbound({ udp_disable_domain_unmapping: true }),
    "/inbounds/0/udp_disable_domain_unmapping",
  ]],
  "override_address (direct outbound)": [[outbound({ override_port: 53 }), "/outbounds/0/override_port"]],
  multiplex: [
    [
      outbound({ password: "p", method: "none", multiplex: { enabled: true } }, "shadowsocks"),
      "/outbounds/0/multiplex",
    ],
    [inbound({ users: [], multiplex: { enabled: true } }, "trojan"), "/inbounds/0/multiplex"],
  ],
  "tls utls/ech/reality": [
    [
      outbound({ password: "p", tls: { enabled: true, utls: { enabled: true } } }, "trojan"),
      "/outbounds/0/tls/utls",
    ],
    [
      outbound({ uuid: "u", tls: { enabled: true, reality: { enabled: true } } }, "vless"),
      "/outbounds/0/tls/reality",
    ],
    [inbound({ users: [], tls: { enabled: true, ech: { enabled: true } } }, "trojan"), "/inbounds/0/tls/ech"],
  ],
  "tls acme": [[inbound({ users: [], tls: { enabled: true, acme: {} } }, "trojan"), "/inbounds/0/tls/acme"]],
  "vless flow": [
    [outbound({ uuid: "u", flow: "xtls-rprx-vision" }, "vless"), "/outbounds/0/flow"],
    [inbound({ users: [{ uuid: "u", flow: "xtls-rprx-vision" }] }, "vless"), "/inbounds/0/users/0/flow"],
  ],
  udp_over_tcp: [[outbound({ udp_over_tcp: true }, "socks"), "/outbounds/0/udp_over_tcp"]],
  "legacy dns server": [[
    base({ dns: { servers: [{ tag: "g", address: "8.8.8.8" }] } }),
    "/dns/servers/0/address",
  ]],
  "dns.fakeip": [[base({ dns: { fakeip: {} } }), "/dns/fakeip"]],
  "dns.independent_cache": [[base({ dns: { independent_cache: true } }), "/dns/independent_cache"]],
  "dns rule method": [[
    dnsRule({ action: "reject", server: undefined, method: "drop" }),
    "/dns/rules/0/method",
  ]],
  "dns rule no_drop": [[
    dnsRule({ action: "reject", server: undefined, no_drop: true }),
    "/dns/rules/0/no_drop",
  ]],
  "dns rule query_client_subnet": [[
    dnsRule({ query_client_subnet: "1.0.0.0/8" }),
    "/dns/rules/0/query_client_subnet",
  ]],
  "dns rule query_dnssec": [[dnsRule({ query_dnssec: true }), "/dns/rules/0/query_dnssec"]],
  "dns rule rule_set_ip_cidr_accept_empty": [[
    dnsRule({ rule_set_ip_cidr_accept_empty: true }),
    "/dns/rules/0/rule_set_ip_cidr_accept_empty",
  ]],
  "rule interface_address": [[routeRule({ interface_address: {} }), "/route/rules/0/interface_address"]],
  "rule network_interface_address": [[
    dnsRule({ network_interface_address: {} }),
    "/dns/rules/0/network_interface_address",
  ]],
  "rule default_interface_address": [[
    base({
      route: {
        rules: [{
          type: "logical",
          mode: "and",
          rules: [{ default_interface_address: "1.0.0.0/8" }],
          outbound: "direct",
        }],
      },
    }),
    "/route/rules/0/rules/0/default_interface_address",
  ]],
  rule_set_ipcidr_match_source: [[
    routeRule({ rule_set_ipcidr_match_source: true }),
    "/route/rules/0/rule_set_ipcidr_match_source",
  ]],
  source_geoip: [[routeRule({ source_geoip: "cn" }), "/route/rules/0/source_geoip"]],
  "route.geoip and route.geosite": [[base({ route: { geosite: {} } }), "/route/geosite"]],
  "route.override_android_vpn": [[
    base({ route: { override_android_vpn: true } }),
    "/route/override_android_vpn",
  ]],
  "experimental.v2ray_api": [[base({ experimental: { v2ray_api: {} } }), "/experimental/v2ray_api"]],
  "services api": [[base({ services: [{ type: "api", listen: "127.0.0.1:1" }] }), "/services/0"]],
};

Deno.test("every reference field is applied as its table says", async (t) => {
  for (const entry of REFERENCE_FIELDS) {
    await t.step(`${entry.decision} ${entry.id}`, () => {
      const samples = SAMPLES[entry.id];
      assert(samples, `no sample for "${entry.id}"`);
      for (const [doc, path] of samples) {
        const r = checkConfig(JSON.stringify(doc));
        const found = [path, referenceMessage(entry)];
        if (entry.decision === "warn") {
          assertEquals(r.errors.map((e) => e.message), []);
          assert(r.model, "a warning must not stop loading");
          assertEquals(r.warnings.map((w) => [w.path, w.message]), [found]);
        } else {
          assertEquals(r.errors.map((e) => [e.path, e.detail]), [found]);
          assertEquals(r.model, undefined);
        }
      }
    });
  }
});

Deno.test("reference table entries are well formed", () => {
  const ids = new Set<string>();
  for (const entry of REFERENCE_FIELDS) {
    assert(!ids.has(entry.id), `duplicate id ${entry.id}`);
    ids.add(entry.id);
    assert(entry.paths.length > 0 && entry.paths.every((p) => p.startsWith("/")), entry.id);
    assert(entry.reason.length > 0 && !entry.reason.endsWith("."), entry.id);
    assert(
      entry.reason[0] === entry.reason[0].toLowerCase() || /^[A-Z]{2}|^Linux|^TLS|^UDP/.test(entry.reason),
      entry.id,
    );
  }
});

Deno.test("matchPaths expands one-level and any-level wildcards", () => {
  const doc = { a: [{ b: 1 }, { c: { b: 2 } }], b: 3 };
  assertEquals(matchPaths(doc, "/a/*/b"), [["a", 0, "b"]]);
  assertEquals(matchPaths(doc, "/**/b").map((p) => p.join("/")).sort(), ["a/0/b", "a/1/c/b", "b"]);
  assertEquals(matchPaths(doc, "/x/*"), []);
});

Deno.test("docs/configuration.md lists the table", async () => {
  const { renderReferenceTable } = await import("./reference_doc.ts");
  const doc = await Deno.readTextFile(new URL("../../../docs/configuration.md", import.meta.url));
  const section =
    doc.split("<!-- reference-fields:start -->")[1]?.split("<!-- reference-fields:end -->")[0] ?? "";
  // deno fmt pads table cells; compare cell contents only.
  const rows = (text: string) =>
    text.trim().split("\n").filter((l) => l.startsWith("|") && !/^\|[\s|:-]+\|$/.test(l))
      .map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim()).join("|"));
  assertEquals(rows(section), rows(renderReferenceTable(REFERENCE_FIELDS)));
});
