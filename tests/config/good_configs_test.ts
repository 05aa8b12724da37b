/**
 * Good configurations, shaped like the sing-box 1.14 documentation examples and the configs users
 * publish, load with the expected model values and defaults.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { ConfigErrors } from "../../src/common/errors.ts";
import { checkConfig, DEFAULT_CONFIG_TEXT, loadConfig } from "../../src/config/mod.ts";

const CLIENT = `{
  // A desktop client: local proxy ports, DNS over HTTPS, rule-sets, dashboard.
  "log": { "level": "warning", "timestamp": true },
  "dns": {
    "servers": [
      { "type": "https", "tag": "remote", "server": "1.1.1.1", "detour": "proxy" },
      { "type": "local", "tag": "local" },
      { "type": "fakeip", "tag": "fakeip", "inet4_range": "198.18.0.0/15", "inet6_range": "fc00::/18" },
      { "type": "hosts", "tag": "hosts", "predefined": { "router.lan": "192.168.1.1" } },
    ],
    "rules": [
      { "clash_mode": "Direct", "server": "local" },
      { "rule_set": "geosite-cn", "server": "local" },
      { "query_type": ["A", "AAAA"], "server": "fakeip" },
      { "domain_suffix": ".lan", "action": "predefined", "rcode": "NXDOMAIN" },
    ],
    "final": "remote",
    "strategy": "ipv4_only",
    "cache_capacity": 100,
    "optimistic": true,
  },
  "inbounds": [
    { "type": "mixed", "tag": "mixed-in", "listen": "127.0.0.1", "listen_port": 2080, "set_system_proxy": false },
    { "type": "socks", "tag": "socks-in", "listen": "::", "listen_port": 1080,
      "users": [{ "username": "alice", "password": "secret" }] },
    { "type": "http", "listen_port": 8080 },
  ],
  "outbounds": [
    { "type": "socks", "tag": "proxy", "server": "proxy.example.com", "server_port": 1080, "version": "5",
      "username": "u", "password": "p", "domain_resolver": "local", "routing_mark": "0x2023" },
    { "type": "http", "tag": "http-proxy", "server": "10.0.0.2", "server_port": 3128,
      "headers": { "User-Agent": "svc" }, "connect_timeout": "5s" },
    { "type": "direct", "tag": "direct" },
    { "type": "block", "tag": "block" },
  ],
  "route": {
    "rules": [
      { "action": "sniff" },
      { "protocol": "dns", "action": "hijack-dns" },
      { "ip_is_private": true, "outbound": "direct" },
      { "clash_mode": "Direct", "outbound": "direct" },
      { "type": "logical", "mode": "or", "rules": [{ "port": 853 }, { "network": "udp", "port": 443 }],
        "action": "reject" },
      { "rule_set": ["geoip-cn", "geosite-cn"], "action": "resolve", "strategy": "prefer_ipv4" },
      { "rule_set": ["geoip-cn", "geosite-cn"], "outbound": "direct" },
    ],
    "rule_set": [
      { "type": "remote", "tag": "geoip-cn",
        "url": "https://raw.githubusercontent.com/SagerNet/sing-geoip/rule-set/geoip-cn.srs",
        "download_detour": "proxy" },
      { "type": "remote", "tag": "geosite-cn", "format": "binary",
        "url": "https://raw.githubusercontent.com/SagerNet/sing-geosite/rule-set/geosite-cn.srs",
        "update_interval": "12h" },
    ],
    "final": "proxy",
    "auto_detect_interface": true,
    "default_domain_resolver": { "server": "local", "strategy": "prefer_ipv4" },
  },
  "experimental": {
    "cache_file": { "enabled": true, "store_fakeip": true },
    "clash_api": { "external_controller": "127.0.0.1:9090", "external_ui": "ui", "secret": "",
      "default_mode": "Enhanced" },
  },
}`;

const SERVER = `{
  "log": { "level": "info", "output": "/var/log/svc.log" },
  "inbounds": [
    { "type": "socks", "tag": "socks-in", "listen": "0.0.0.0", "listen_port": 1080, "udp_timeout": "1m",
      "users": [{ "username": "a", "password": "1" }, { "username": "b", "password": "2" }] },
    { "type": "direct", "tag": "dns-in", "listen": "0.0.0.0", "listen_port": 5353, "network": "udp",
      "override_address": "1.1.1.1", "override_port": 53 },
  ],
  "outbounds": [{ "type": "direct", "tag": "direct", "tcp_fast_open": true, "tcp_keep_alive": "1m" }],
  "route": {
    "rules": [
      { "inbound": "socks-in", "auth_user": "b", "port_range": "1000:2000", "action": "reject", "method": "drop" },
      { "ip_cidr": ["10.0.0.0/8", "192.168.0.0/16"], "action": "reject" },
    ],
  },
  "user_limits": { "a": { "max_connections": 100, "up_mbps": 10, "expire_at": "2030-01-31T00:00:00Z" } },
}`;

Deno.test("the embedded default configuration loads", () => {
  const { model, warnings } = loadConfig(DEFAULT_CONFIG_TEXT);
  assertEquals(warnings, []);
  assertEquals(model.inbounds, [{
    type: "mixed",
    tag: "mixed-in",
    listen: "127.0.0.1",
    listen_port: 2080,
    udp_timeout: 300_000,
  }]);
  assertEquals(model.outbounds, [{ type: "direct", tag: "direct" }]);
  assertEquals(model.route.final, "direct");
});

Deno.test("an empty object gets every default", () => {
  const { model } = loadConfig("{}");
  assertEquals(model.log, { disabled: false, level: "info", format: "full", timestamp: false });
  assertEquals(model.route.final, undefined);
  assertEquals(model.route.rules, []);
  assertEquals(model.route.auto_detect_interface, false);
  assertEquals(model.dns.strategy, "prefer_ipv4");
  assertEquals(model.dns.timeout, 10_000);
  assertEquals(model.dns.cache_capacity, 1024);
  assertEquals(model.dns.optimistic, { enabled: false, timeout: 3 * 86_400_000 });
  assertEquals(model.dns.final, undefined);
  assertEquals(model.certificate, { store: "system" });
  assertEquals(model.compat_api, undefined);
  assertEquals(model.api, undefined);
  assertEquals(model.inbounds, []);
  assertEquals(model.outbounds, []);
  assertEquals(model.user_limits, {});
});

Deno.test("a desktop client configuration loads with normalised values", () => {
  const { model, warnings } = loadConfig(CLIENT);
  assertEquals(warnings, [{
    path: "/inbounds/0/set_system_proxy",
    message: "ignored: the system proxy settings are not changed",
  }]);
  assertEquals(model.log.level, "warning");
  assertEquals(model.log.timestamp, true);
  // DNS
  assertEquals(model.dns.cache_capacity, 1024);
  assertEquals(model.dns.optimistic, { enabled: true, timeout: 259_200_000 });
  assertEquals(model.dns.servers[0], {
    type: "https",
    tag: "remote",
    server: "1.1.1.1",
    server_port: 443,
    path: "/dns-query",
    detour: "proxy",
  });
  assertEquals(model.dns.servers[3], {
    type: "hosts",
    tag: "hosts",
    predefined: { "router.lan": ["192.168.1.1"] },
  });
  const dnsRule = model.dns.rules[0];
  assert(dnsRule.type === "default");
  assertEquals(dnsRule.compat_mode, "Direct");
  assertEquals("clash_mode" in dnsRule, false);
  assertEquals(dnsRule.action, "route");
  assertEquals(model.dns.rules[1].type === "default" && model.dns.rules[1].rule_set, ["geosite-cn"]);
  // Inbounds
  const socksIn = model.inbounds[1];
  assert(socksIn.type === "socks");
  assertEquals(socksIn.users, [{ username: "alice", password: "secret" }]);
  assertEquals(model.inbounds[2].tag, "http");
  assertEquals(model.inbounds[2].listen, "127.0.0.1");
  // Outbounds
  const proxy = model.outbounds[0];
  assert(proxy.type === "socks");
  assertEquals(proxy.routing_mark, 0x2023);
  assertEquals(proxy.domain_resolver, { server: "local" });
  const http = model.outbounds[1];
  assert(http.type === "http");
  assertEquals(http.headers, { "User-Agent": ["svc"] });
  assertEquals(http.connect_timeout, 5000);
  // Route
  const [sniff, hijack, , mode, logical, resolve] = model.route.rules;
  assertEquals(sniff, { type: "default", invert: false, action: "sniff", timeout: 300 });
  assertEquals(hijack.action, "hijack-dns");
  assert(mode.type === "default");
  assertEquals(mode.compat_mode, "Direct");
  assert(logical.type === "logical");
  assertEquals(logical.action, "reject");
  assertEquals(logical.method, "default");
  assertEquals(logical.rules[1], { type: "default", network: ["udp"], port: [443], invert: false });
  assertEquals(resolve.strategy, "prefer_ipv4");
  assertEquals(model.route.rule_set[0], {
    type: "remote",
    tag: "geoip-cn",
    format: "binary",
    url: "https://raw.githubusercontent.com/SagerNet/sing-geoip/rule-set/geoip-cn.srs",
    download_detour: "proxy",
    update_interval: 86_400_000,
  });
  assertEquals(
    model.route.rule_set[1].type === "remote" && model.route.rule_set[1].update_interval,
    12 * 3_600_000,
  );
  assertEquals(model.route.final, "proxy");
  assertEquals(model.route.default_domain_resolver, { server: "local", strategy: "prefer_ipv4" });
  // experimental.clash_api becomes compat_api
  assertEquals(model.compat_api, {
    external_controller: "127.0.0.1:9090",
    external_ui: "ui",
    secret: "",
    default_mode: "Enhanced",
    access_control_allow_origin: [],
    access_control_allow_private_network: false,
  });
  assertEquals(model.experimental.cache_file?.enabled, true);
  assertEquals(model.experimental.cache_file?.path, "cache.db");
  assertEquals(model.experimental.cache_file?.rdrc_timeout, 7 * 86_400_000);
});

Deno.test("a server configuration loads", () => {
  const { model } = loadConfig(SERVER);
  assertEquals(model.inbounds[0].udp_timeout, 60_000);
  const dnsIn = model.inbounds[1];
  assert(dnsIn.type === "direct");
  assertEquals(dnsIn.network, ["udp"]);
  assertEquals(dnsIn.override_port, 53);
  assertEquals(model.outbounds[0], {
    type: "direct",
    tag: "direct",
    tcp_fast_open: true,
    tcp_keep_alive: 60_000,
  });
  assertEquals(model.route.final, "direct");
  const [first] = model.route.rules;
  assert(first.type === "default");
  assertEquals(first.inbound, ["socks-in"]);
  assertEquals(first.method, "drop");
  assertEquals(model.user_limits.a, { max_connections: 100, up_mbps: 10, expire_at: "2030-01-31T00:00:00Z" });
});

Deno.test("compat_api is read at its three places", () => {
  for (
    const doc of [{ compat_api: { default_mode: "Global" } }, {
      experimental: { compat_api: { default_mode: "Global" } },
    }, {
      experimental: { clash_api: { default_mode: "Global" } },
    }]
  ) {
    assertEquals(loadConfig(JSON.stringify(doc)).model.compat_api?.default_mode, "Global");
  }
});

Deno.test("compat_mode and clash_mode are one condition", () => {
  const text = JSON.stringify({
    outbounds: [{ type: "direct" }],
    route: {
      rules: [{ compat_mode: "Global", outbound: "direct" }, { clash_mode: "Rule", outbound: "direct" }],
    },
  });
  const rules = loadConfig(text).model.route.rules;
  assertEquals(rules.map((r) => r.type === "default" && r.compat_mode), ["Global", "Rule"]);
});

Deno.test("durations become milliseconds", () => {
  const text = JSON.stringify({
    inbounds: [{
      type: "mixed",
      udp_timeout: "1h30m",
      tcp_keep_alive: "1.5s",
      tcp_keep_alive_interval: "250ms",
    }],
    dns: { timeout: "2s", optimistic: { enabled: true, timeout: "1d" } },
  });
  const { model } = loadConfig(text);
  assertEquals(model.inbounds[0].udp_timeout, 5_400_000);
  assertEquals(model.inbounds[0].tcp_keep_alive, 1500);
  assertEquals(model.inbounds[0].tcp_keep_alive_interval, 250);
  assertEquals(model.dns.timeout, 2000);
  assertEquals(model.dns.optimistic, { enabled: true, timeout: 86_400_000 });
});

Deno.test("listable fields become arrays", () => {
  const text = JSON.stringify({
    outbounds: [{ type: "direct" }],
    route: { rules: [{ domain: "a.com", port: 443, user_id: 1000, outbound: "direct" }] },
    certificate: { certificate_path: "/etc/ca.pem" },
    compat_api: { access_control_allow_origin: "*" },
  });
  const { model } = loadConfig(text);
  const rule = model.route.rules[0];
  assert(rule.type === "default");
  assertEquals([rule.domain, rule.port, rule.user_id], [["a.com"], [443], [1000]]);
  assertEquals(model.certificate.certificate_path, ["/etc/ca.pem"]);
  assertEquals(model.compat_api?.access_control_allow_origin, ["*"]);
});

Deno.test("the first outbound is the final one; endpoints are not", () => {
  const text = JSON.stringify({ outbounds: [{ type: "block" }, { type: "direct" }] });
  assertEquals(loadConfig(text).model.route.final, "block");
});

Deno.test("dns.final defaults to the first server", () => {
  const text = JSON.stringify({ dns: { servers: [{ type: "local" }, { type: "udp", server: "9.9.9.9" }] } });
  const { model } = loadConfig(text);
  assertEquals(model.dns.final, "local");
  assertEquals(model.dns.servers[1], { type: "udp", tag: "udp", server: "9.9.9.9", server_port: 53 });
});

Deno.test("race, sequential, mdns and evaluate rules load", () => {
  const text = JSON.stringify({
    dns: {
      servers: [
        { type: "udp", tag: "a", server: "1.1.1.1" },
        { type: "tls", tag: "b", server: "8.8.8.8" },
        { type: "race", tag: "fast", servers: ["a", "b"] },
        { type: "sequential", tag: "seq", servers: "a" },
        { type: "mdns", tag: "mdns" },
      ],
      rules: [
        { domain_suffix: ".local", server: "mdns" },
        { action: "evaluate", server: "fast", tag: "first" },
        { match_response: "first", ip_is_private: true, action: "respond" },
        { domain: "x", action: "route-options", disable_cache: true },
      ],
    },
  });
  const { model } = loadConfig(text);
  assertEquals(model.dns.servers[1], { type: "tls", tag: "b", server: "8.8.8.8", server_port: 853 });
  assertEquals(model.dns.servers[3], { type: "sequential", tag: "seq", servers: ["a"] });
  assertEquals(model.dns.servers[4], { type: "mdns", tag: "mdns", interface: [] });
  assertEquals(model.dns.rules[1].action, "evaluate");
});

Deno.test("warnings do not stop loading and list every dropped field", () => {
  const text = JSON.stringify({
    inbounds: [{ type: "mixed", tcp_multi_path: true, udp_fragment: true }],
    outbounds: [{ type: "direct", bind_address_no_port: true }],
    dns: {
      independent_cache: true,
      servers: [{ type: "local" }],
      rules: [{ domain: "a", action: "reject", method: "drop", no_drop: true }],
    },
    route: { override_android_vpn: true },
    services: [{ type: "api", listen: "127.0.0.1:9000" }],
    experimental: { v2ray_api: { listen: "127.0.0.1:8080" } },
  });
  const { model, warnings } = loadConfig(text);
  assertEquals(warnings.map((w) => w.path).sort(), [
    "/dns/independent_cache",
    "/dns/rules/0/method",
    "/dns/rules/0/no_drop",
    "/experimental/v2ray_api",
    "/inbounds/0/tcp_multi_path",
    "/inbounds/0/udp_fragment",
    "/outbounds/0/bind_address_no_port",
    "/route/override_android_vpn",
    "/services/0",
  ]);
  assertEquals(model.inbounds[0].tcp_multi_path, undefined);
  assertEquals(model.dns.independent_cache, undefined);
  assertEquals("services" in model, false);
});

Deno.test("loadConfig throws ConfigErrors with every error and the warnings", () => {
  const text = JSON.stringify({
    inbounds: [{ type: "mixed", tcp_multi_path: true, listen_port: -1 }],
    route: { final: "x" },
  });
  try {
    loadConfig(text);
    throw new Error("no error");
  } catch (e) {
    assert(e instanceof ConfigErrors);
    assertEquals(e.errors.map((x) => x.message), ["/inbounds/0/listen_port: port must be from 0 to 65535"]);
    assertEquals(e.warnings, [
      "/inbounds/0/tcp_multi_path: ignored: multipath TCP is not available; plain TCP is used",
    ]);
  }
});

Deno.test("errors carry the source line", () => {
  const text = `{
  "inbounds": [
    {
      "type": "mixed",
      "listen_prot": 1080
    }
  ],
  "route": { "final": "nope" }
}`;
  const r = checkConfig(text);
  assertEquals(r.errors.map((e) => [e.path, e.line]), [["/inbounds/0/listen_prot", 5]]);
  const r2 = checkConfig(`{\n"outbounds": [],\n\n"route": {"final": "nope"}}`);
  assertEquals(r2.errors.map((e) => [e.path, e.line]), [["/route/final", 4]]);
});

Deno.test("a TUN inbound is reported alone, as not implemented yet", () => {
  const r = checkConfig(JSON.stringify({ inbounds: [{ type: "tun", auto_route: true, stack: "gvisor" }] }));
  assertEquals(r.errors.map((e) => e.message), [
    '/inbounds/0/type: inbound type "tun" is not implemented yet',
  ]);
});

Deno.test("api serves on api.sock when neither path nor listen is set", () => {
  assertEquals(loadConfig(`{"api": {}}`).model.api, { path: "api.sock" });
  assertEquals(loadConfig(`{"api": {"listen": "127.0.0.1:9091", "secret": "s"}}`).model.api, {
    listen: "127.0.0.1:9091",
    secret: "s",
  });
});
