/**
 * Bad configurations: each case lists every error expected, by exact JSON pointer and message.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { checkConfig } from "../../src/config/mod.ts";
import { config, type Json, withDns, withInbound, withOutbounds, withRules } from "./helpers.ts";

interface Case {
  name: string;
  /** A configuration object, or raw text. */
  input: Json | string;
  errors: [string, string][];
  warnings?: [string, string][];
}

const LEVELS = '"trace", "debug", "info", "warn", "warning", "error", "fatal", "panic"';
const STRATEGIES = '"prefer_ipv4", "prefer_ipv6", "ipv4_only", "ipv6_only"';
const ROUTE_ACTIONS = '"route", "bypass", "reject", "hijack-dns", "route-options", "sniff", "resolve"';
const NETWORK_KINDS = '"wifi", "cellular", "ethernet", "other"';
const SNIFFERS = '"http", "tls", "quic", "stun", "dns", "bittorrent", "dtls", "ssh", "rdp", "ntp"';
const inbound = (extra: Json) => withInbound({ type: "mixed", tag: "in", listen_port: 1080, ...extra });
const socks = (extra: Json = {}) => ({
  type: "socks",
  tag: "s",
  server: "10.0.0.1",
  server_port: 1080,
  ...extra,
});
const rule = (r: Json, route: Json = {}) => withRules([r], route);
const udp = (extra: Json = {}) => ({ type: "udp", tag: "dns", server: "1.1.1.1", ...extra });

const CASES: Case[] = [
  // Text and top level.
  { name: "empty text", input: "", errors: [["", "the configuration is empty"]] },
  { name: "comments only", input: "// nothing\n", errors: [["", "the configuration is empty"]] },
  { name: "top-level array", input: "[]", errors: [["", "expected a JSON object at the top level"]] },
  { name: "top-level string", input: '"x"', errors: [["", "expected a JSON object at the top level"]] },
  { name: "missing value", input: '{"log": }', errors: [["", "line 1, column 9: expected a value"]] },
  {
    name: "missing comma",
    input: '{"log": {}\n "dns": {}}',
    errors: [["", 'line 2, column 2: expected ","']],
  },
  {
    name: "unterminated string",
    input: '{"log": {"output": "x}}',
    errors: [["", "line 1, column 20: unterminated string"]],
  },
  {
    name: "unterminated comment",
    input: '{"log": {} /* x',
    errors: [["", "line 1, column 12: unterminated comment"]],
  },
  { name: "single quotes", input: "{'log': {}}", errors: [["", "line 1, column 2: invalid symbol"]] },
  { name: "duplicate field", input: '{"log": {},\n"log": {}}', errors: [["/log", "duplicate field"]] },
  { name: "unknown top-level field", input: { foo: 1 }, errors: [["/foo", "unknown field"]] },
  {
    name: "misspelt top-level field",
    input: { logs: {} },
    errors: [["/logs", 'unknown field (did you mean "log"?)']],
  },
  {
    name: "certificate_providers",
    input: config({ certificate_providers: [] }),
    errors: [["/certificate_providers", "certificate providers (ACME and others) are not supported"]],
  },
  {
    name: "network_namespaces",
    input: config({ network_namespaces: [] }),
    errors: [["/network_namespaces", "Linux network namespaces are not supported"]],
  },
  {
    name: "schema not a string",
    input: config({ $schema: 1 }),
    errors: [["/$schema", "expected a string, got 1"]],
  },

  // log
  {
    name: "log level unknown",
    input: config({ log: { level: "verbose" } }),
    errors: [["/log/level", `invalid value "verbose": expected one of ${LEVELS}`]],
  },
  {
    name: "log level misspelt",
    input: config({ log: { level: "debgu" } }),
    errors: [["/log/level", `invalid value "debgu": expected one of ${LEVELS} (did you mean "debug"?)`]],
  },
  {
    name: "log format",
    input: config({ log: { format: "json" } }),
    errors: [["/log/format", 'invalid value "json": expected one of "full", "compact"']],
  },
  {
    name: "log disabled string",
    input: config({ log: { disabled: "yes" } }),
    errors: [["/log/disabled", 'expected a boolean, got "yes"']],
  },
  {
    name: "log timestamp number",
    input: config({ log: { timestamp: 1 } }),
    errors: [["/log/timestamp", "expected a boolean, got 1"]],
  },
  {
    name: "log output number",
    input: config({ log: { output: 5 } }),
    errors: [["/log/output", "expected a string, got 5"]],
  },
  {
    name: "log unknown field",
    input: config({ log: { colour: true } }),
    errors: [["/log/colour", "unknown field"]],
  },
  {
    name: "log not an object",
    input: config({ log: "info" }),
    errors: [["/log", 'expected an object, got "info"']],
  },

  // inbounds
  {
    name: "inbounds not an array",
    input: { inbounds: {} },
    errors: [["/inbounds", "expected an array, got an object"]],
  },
  {
    name: "inbound without type",
    input: { inbounds: [{}] },
    errors: [["/inbounds/0/type", "missing required field"]],
  },
  {
    name: "inbound type number",
    input: { inbounds: [{ type: 5 }] },
    errors: [["/inbounds/0/type", "expected a string, got 5"]],
  },
  {
    name: "inbound type pending",
    input: { inbounds: [{ type: "tuic", users: 5, bogus: true }] },
    errors: [["/inbounds/0/type", 'inbound type "tuic" is not implemented yet']],
  },
  {
    name: "inbound tun pending",
    input: { inbounds: [{ type: "tun", auto_route: true }] },
    errors: [["/inbounds/0/type", 'inbound type "tun" is not implemented yet']],
  },
  {
    name: "inbound type refused",
    input: { inbounds: [{ type: "naive" }] },
    errors: [["/inbounds/0/type", 'inbound type "naive" is not supported']],
  },
  {
    name: "inbound type unknown",
    input: { inbounds: [{ type: "foo" }] },
    errors: [["/inbounds/0/type", 'unknown inbound type "foo"']],
  },
  {
    name: "listen port too large",
    input: inbound({ listen_port: 70000 }),
    errors: [["/inbounds/0/listen_port", "port must be from 0 to 65535"]],
  },
  {
    name: "listen port string",
    input: inbound({ listen_port: "1080" }),
    errors: [["/inbounds/0/listen_port", "expected a port number (integer from 0 to 65535)"]],
  },
  {
    name: "listen port fraction",
    input: inbound({ listen_port: 1.5 }),
    errors: [["/inbounds/0/listen_port", "expected a port number (integer from 0 to 65535)"]],
  },
  {
    name: "listen number",
    input: inbound({ listen: 127 }),
    errors: [["/inbounds/0/listen", "expected a string, got 127"]],
  },
  {
    name: "misspelt listen field",
    input: inbound({ listen_prot: 1 }),
    errors: [["/inbounds/0/listen_prot", 'unknown field (did you mean "listen_port"?)']],
  },
  {
    name: "udp_timeout zero",
    input: inbound({ udp_timeout: "0s" }),
    errors: [["/inbounds/0/udp_timeout", "duration must be greater than zero"]],
  },
  {
    name: "udp_timeout negative",
    input: inbound({ udp_timeout: "-5m" }),
    errors: [["/inbounds/0/udp_timeout", "duration must be greater than zero"]],
  },
  {
    name: "udp_timeout words",
    input: inbound({ udp_timeout: "5 minutes" }),
    errors: [[
      "/inbounds/0/udp_timeout",
      'invalid duration "5 minutes" (use a form such as "300ms", "5m" or "1h30m")',
    ]],
  },
  {
    name: "udp_timeout number",
    input: inbound({ udp_timeout: 300 }),
    errors: [["/inbounds/0/udp_timeout", 'expected a duration string such as "5m"']],
  },
  {
    name: "user without password",
    input: inbound({ users: [{ username: "a" }] }),
    errors: [["/inbounds/0/users/0/password", "missing required field"]],
  },
  {
    name: "user with unknown field",
    input: inbound({ users: [{ username: "a", password: "b", uuid: "x" }] }),
    errors: [["/inbounds/0/users/0/uuid", "unknown field"]],
  },
  {
    name: "users not an array",
    input: inbound({ users: "a:b" }),
    errors: [["/inbounds/0/users", 'expected an array, got "a:b"']],
  },
  {
    name: "legacy sniff",
    input: inbound({ sniff: true }),
    errors: [["/inbounds/0/sniff", 'removed in sing-box 1.13: use a route rule with the "sniff" action']],
  },
  {
    name: "legacy sniff_override_destination",
    input: inbound({ sniff_override_destination: true }),
    errors: [[
      "/inbounds/0/sniff_override_destination",
      'removed in sing-box 1.13: use "override_destination" on a route rule with the "sniff" action',
    ]],
  },
  {
    name: "legacy sniff_timeout",
    input: inbound({ sniff_timeout: "300ms" }),
    errors: [[
      "/inbounds/0/sniff_timeout",
      'removed in sing-box 1.13: use "timeout" on a route rule with the "sniff" action',
    ]],
  },
  {
    name: "legacy inbound domain_strategy",
    input: inbound({ domain_strategy: "ipv4_only" }),
    errors: [[
      "/inbounds/0/domain_strategy",
      'removed in sing-box 1.13: use a route rule with the "resolve" action',
    ]],
  },
  {
    name: "legacy udp_disable_domain_unmapping",
    input: inbound({ udp_disable_domain_unmapping: true }),
    errors: [[
      "/inbounds/0/udp_disable_domain_unmapping",
      'removed in sing-box 1.13: use "udp_disable_domain_unmapping" on a route rule with the "route-options" action',
    ]],
  },
  {
    name: "inbound netns",
    input: inbound({ netns: "ns1" }),
    errors: [["/inbounds/0/netns", "network namespaces are not supported"]],
  },
  {
    name: "http inbound tls version",
    input: withInbound({ type: "http", listen_port: 8080, tls: { enabled: true, min_version: "1.4" } }),
    errors: [[
      "/inbounds/0/tls/min_version",
      'invalid value "1.4": expected one of "1.0", "1.1", "1.2", "1.3" (did you mean "1.0"?)',
    ]],
  },
  {
    name: "direct inbound network",
    input: withInbound({ type: "direct", network: "icmp" }),
    errors: [["/inbounds/0/network", 'invalid value "icmp": expected one of "tcp", "udp"']],
  },
  {
    name: "direct inbound override_port",
    input: withInbound({ type: "direct", override_port: -1 }),
    errors: [["/inbounds/0/override_port", "port must be from 0 to 65535"]],
  },
  {
    name: "socks inbound set_system_proxy",
    input: withInbound({ type: "socks", set_system_proxy: true }),
    errors: [["/inbounds/0/set_system_proxy", "unknown field"]],
  },
  {
    name: "duplicate inbound tags",
    input: config({ inbounds: [{ type: "mixed", tag: "in" }, { type: "socks", tag: "in" }] }),
    errors: [["/inbounds/1/tag", 'duplicate inbound tag "in" (also used by /inbounds/0)']],
  },
  {
    name: "duplicate default inbound tags",
    input: config({ inbounds: [{ type: "mixed" }, { type: "mixed", listen_port: 1 }] }),
    errors: [["/inbounds/1/tag", 'duplicate inbound tag "mixed" (also used by /inbounds/0)']],
  },
  {
    name: "inbound detour unknown",
    input: inbound({ detour: "x" }),
    errors: [["/inbounds/0/detour", 'unknown inbound tag "x"']],
  },
  {
    name: "inbound detour itself",
    input: inbound({ detour: "in" }),
    errors: [["/inbounds/0/detour", "an inbound cannot forward to itself"]],
  },
  {
    name: "routing mark bad hex",
    input: inbound({ routing_mark: "0xzz" }),
    errors: [[
      "/inbounds/0/routing_mark",
      'invalid routing mark "0xzz" (use an integer or "0x…" hexadecimal)',
    ]],
  },
  {
    name: "routing mark boolean",
    input: inbound({ routing_mark: true }),
    errors: [["/inbounds/0/routing_mark", 'expected an integer or a hexadecimal string such as "0x1234"']],
  },
  {
    name: "keep alive negative",
    input: inbound({ tcp_keep_alive: "-5s" }),
    errors: [["/inbounds/0/tcp_keep_alive", "duration must be greater than zero"]],
  },
  {
    name: "inbound tag empty",
    input: inbound({ tag: "" }),
    errors: [["/inbounds/0/tag", "tag must not be empty"]],
  },

  // outbounds
  {
    name: "socks outbound without server",
    input: withOutbounds({ type: "socks" }),
    errors: [["/outbounds/1/server", "missing required field"], [
      "/outbounds/1/server_port",
      "missing required field",
    ]],
  },
  {
    name: "socks version",
    input: withOutbounds(socks({ version: "6" })),
    errors: [["/outbounds/1/version", 'invalid value "6": expected one of "4", "5", "4a"']],
  },
  {
    name: "socks network",
    input: withOutbounds(socks({ network: "both" })),
    errors: [["/outbounds/1/network", 'invalid value "both": expected one of "tcp", "udp"']],
  },
  {
    name: "socks server_port zero",
    input: withOutbounds(socks({ server_port: 0 })),
    errors: [["/outbounds/1/server_port", "port must be from 1 to 65535"]],
  },
  {
    name: "socks udp_over_tcp",
    input: withOutbounds(socks({ udp_over_tcp: true })),
    errors: [["/outbounds/1/udp_over_tcp", "UDP over TCP is not implemented yet"]],
  },
  {
    name: "socks tls unknown field",
    input: withOutbounds(socks({ tls: { enabled: true, insecure_skip: true } })),
    errors: [["/outbounds/1/tls/insecure_skip", "unknown field"]],
  },
  {
    name: "http outbound tls utls",
    input: withOutbounds({
      type: "http",
      server: "a",
      server_port: 443,
      tls: { enabled: true, utls: { enabled: true, fingerprint: "chrome" } },
    }),
    errors: [[
      "/outbounds/1/tls/utls",
      "uTLS, ECH and REALITY are not implemented yet (they arrive with advanced TLS)",
    ]],
  },
  {
    name: "http headers value",
    input: withOutbounds({ type: "http", server: "a", server_port: 80, headers: { "X-A": 1 } }),
    errors: [["/outbounds/1/headers/X-A", "expected a string, or an array of them"]],
  },
  {
    name: "http path number",
    input: withOutbounds({ type: "http", server: "a", server_port: 80, path: 1 }),
    errors: [["/outbounds/1/path", "expected a string, got 1"]],
  },
  {
    name: "direct override_address",
    input: withOutbounds({ type: "direct", tag: "d2", override_address: "1.1.1.1" }),
    errors: [[
      "/outbounds/1/override_address",
      'removed in sing-box 1.13: use a route rule with the "route-options" action and "override_address" or "override_port"',
    ]],
  },
  {
    name: "block with detour",
    input: withOutbounds({ type: "block", detour: "direct" }),
    errors: [["/outbounds/1/detour", "unknown field"]],
  },
  {
    name: "dns outbound",
    input: withOutbounds({ type: "dns" }),
    errors: [[
      "/outbounds/1/type",
      'outbound type "dns" was removed in sing-box 1.13: use a route rule with the "hijack-dns" action',
    ]],
  },
  {
    name: "wireguard outbound",
    input: withOutbounds({ type: "wireguard", private_key: "x" }),
    errors: [[
      "/outbounds/1/type",
      'outbound type "wireguard" was removed in sing-box 1.13: use a "wireguard" endpoint in "endpoints"',
    ]],
  },
  {
    name: "tor outbound",
    input: withOutbounds({ type: "tor" }),
    errors: [["/outbounds/1/type", 'outbound type "tor" is not supported']],
  },
  {
    name: "selector member missing",
    input: withOutbounds({ type: "selector", outbounds: ["nope"] }),
    errors: [["/outbounds/1/outbounds/0", 'unknown outbound tag "nope"']],
  },
  {
    name: "outbound type unknown",
    input: withOutbounds({ type: "foo" }),
    errors: [["/outbounds/1/type", 'unknown outbound type "foo"']],
  },
  {
    name: "duplicate outbound tags",
    input: withOutbounds({ type: "block", tag: "direct" }),
    errors: [["/outbounds/1/tag", 'duplicate outbound tag "direct" (also used by /outbounds/0)']],
  },
  {
    name: "outbound detour unknown",
    input: withOutbounds(socks({ detour: "x" })),
    errors: [["/outbounds/1/detour", 'unknown outbound tag "x"']],
  },
  {
    name: "outbound detour itself",
    input: withOutbounds(socks({ detour: "s" })),
    errors: [["/outbounds/1/detour", "an outbound cannot detour through itself"]],
  },
  {
    name: "detour cycle",
    input: withOutbounds(socks({ tag: "a", detour: "b" }), socks({ tag: "b", detour: "a" })),
    errors: [["/outbounds/1/detour", 'detour cycle: "a" -> "b" -> "a"']],
  },
  {
    name: "domain_resolver unknown",
    input: withOutbounds(socks({ domain_resolver: "local" })),
    errors: [["/outbounds/1/domain_resolver", 'unknown DNS server tag "local"']],
  },
  {
    name: "domain_resolver strategy",
    input: withOutbounds(socks({ domain_resolver: { server: "x", strategy: "fast" } })),
    errors: [[
      "/outbounds/1/domain_resolver/strategy",
      `invalid value "fast": expected one of ${STRATEGIES}`,
    ]],
  },
  {
    name: "domain_resolver number",
    input: withOutbounds(socks({ domain_resolver: 5 })),
    errors: [["/outbounds/1/domain_resolver", "expected a DNS server tag or a resolver object"]],
  },
  {
    name: "dial domain_strategy",
    input: withOutbounds(socks({ domain_strategy: "ipv4_only" })),
    errors: [[
      "/outbounds/1/domain_strategy",
      'removed in sing-box 1.14: use "domain_resolver": {"server": "<dns server tag>", "strategy": "<strategy>"}',
    ]],
  },
  {
    name: "connect_timeout unit",
    input: withOutbounds(socks({ connect_timeout: "5x" })),
    errors: [[
      "/outbounds/1/connect_timeout",
      'invalid duration "5x" (use a form such as "300ms", "5m" or "1h30m")',
    ]],
  },
  {
    name: "network_strategy",
    input: withOutbounds(socks({ network_strategy: "fast" })),
    errors: [[
      "/outbounds/1/network_strategy",
      'invalid value "fast": expected one of "default", "hybrid", "fallback"',
    ]],
  },
  {
    name: "network_type misspelt",
    input: withOutbounds(socks({ network_type: "wifi6" })),
    errors: [[
      "/outbounds/1/network_type",
      `invalid value "wifi6": expected one of ${NETWORK_KINDS} (did you mean "wifi"?)`,
    ]],
  },
  {
    name: "outbound netns",
    input: withOutbounds(socks({ netns: "x" })),
    errors: [["/outbounds/1/netns", "network namespaces are not supported"]],
  },

  // endpoints
  {
    name: "wireguard endpoint pending",
    input: config({ endpoints: [{ type: "wireguard", peers: [] }] }),
    errors: [["/endpoints/0/type", 'endpoint type "wireguard" is not implemented yet']],
  },
  {
    name: "tailscale endpoint",
    input: config({ endpoints: [{ type: "tailscale" }] }),
    errors: [["/endpoints/0/type", 'endpoint type "tailscale" is not supported']],
  },

  // route
  {
    name: "final unknown",
    input: config({ route: { final: "proxy" } }),
    errors: [["/route/final", 'unknown outbound tag "proxy"']],
  },
  {
    name: "final without outbounds",
    input: { route: { final: "direct" } },
    errors: [["/route/final", 'unknown outbound tag "direct"']],
  },
  {
    name: "rule outbound unknown",
    input: rule({ domain: "a.com", outbound: "proxy" }),
    errors: [["/route/rules/0/outbound", 'unknown outbound tag "proxy"']],
  },
  {
    name: "route rule without outbound",
    input: rule({ domain: "a.com" }),
    errors: [["/route/rules/0/outbound", "missing required field"]],
  },
  {
    name: "route rule without condition",
    input: withRules([{ domain: "a.com", outbound: "direct" }, { outbound: "direct" }]),
    errors: [["/route/rules/1", 'a "route" rule needs at least one condition; the catch-all is route.final']],
  },
  {
    name: "reject rule without condition",
    input: rule({ action: "reject" }),
    errors: [[
      "/route/rules/0",
      'a "reject" rule needs at least one condition; the catch-all is route.final',
    ]],
  },
  {
    name: "hijack-dns rule without condition",
    input: rule({ action: "hijack-dns" }),
    errors: [[
      "/route/rules/0",
      'a "hijack-dns" rule needs at least one condition; the catch-all is route.final',
    ]],
  },
  {
    name: "bypass with outbound without condition",
    input: rule({ action: "bypass", outbound: "direct" }),
    errors: [[
      "/route/rules/0",
      'a "bypass" rule needs at least one condition; the catch-all is route.final',
    ]],
  },
  {
    name: "invert alone is no condition",
    input: rule({ invert: true, outbound: "direct" }),
    errors: [["/route/rules/0", 'a "route" rule needs at least one condition; the catch-all is route.final']],
  },
  {
    name: "sniffer on route",
    input: rule({ domain: "a", outbound: "direct", sniffer: ["tls"] }),
    errors: [["/route/rules/0/sniffer", 'field belongs to the "sniff" action, not "route"']],
  },
  {
    name: "method on route",
    input: rule({ domain: "a", outbound: "direct", method: "drop" }),
    errors: [["/route/rules/0/method", 'field belongs to the "reject" action, not "route"']],
  },
  {
    name: "server on sniff",
    input: rule({ action: "sniff", server: "dns" }),
    errors: [["/route/rules/0/server", 'field belongs to the "resolve" action, not "sniff"'], [
      "/route/rules/0/server",
      'unknown DNS server tag "dns"',
    ]],
  },
  {
    name: "timeout on route",
    input: rule({ domain: "a", outbound: "direct", timeout: "1s" }),
    errors: [["/route/rules/0/timeout", 'field belongs to the "sniff" or "resolve" action, not "route"']],
  },
  {
    name: "outbound on reject",
    input: rule({ domain: "a", action: "reject", outbound: "direct" }),
    errors: [["/route/rules/0/outbound", 'field belongs to the "route" or "bypass" action, not "reject"']],
  },
  {
    name: "override_port on hijack-dns",
    input: rule({ port: 53, action: "hijack-dns", override_port: 5353 }),
    errors: [[
      "/route/rules/0/override_port",
      'field belongs to the "route", "bypass" or "route-options" action, not "hijack-dns"',
    ]],
  },
  {
    name: "at_sniff on route-options",
    input: rule({ action: "route-options", override_destination: "at_sniff" }),
    errors: [["/route/rules/0/override_destination", '"at_sniff" is valid for the "sniff" action only']],
  },
  {
    name: "override_destination value",
    input: rule({ action: "sniff", override_destination: "yes" }),
    errors: [["/route/rules/0/override_destination", 'expected true, false or "at_sniff"']],
  },
  {
    name: "no_drop with drop",
    input: rule({ domain: "a", action: "reject", method: "drop", no_drop: true }),
    errors: [["/route/rules/0/no_drop", 'has no effect with "method": "drop"']],
  },
  {
    name: "action unknown",
    input: rule({ domain: "a", action: "block" }),
    errors: [["/route/rules/0/action", `invalid value "block": expected one of ${ROUTE_ACTIONS}`]],
  },
  {
    name: "reject method",
    input: rule({ domain: "a", action: "reject", method: "rst" }),
    errors: [["/route/rules/0/method", 'invalid value "rst": expected one of "default", "drop", "reply"']],
  },
  {
    name: "misspelt condition",
    input: rule({ domian: "a", outbound: "direct" }),
    errors: [["/route/rules/0/domian", 'unknown field (did you mean "domain"?)']],
  },
  {
    name: "action field in nested rule",
    input: rule({
      type: "logical",
      mode: "and",
      rules: [{ domain: "a", outbound: "direct" }],
      outbound: "direct",
    }),
    errors: [[
      "/route/rules/0/rules/0/outbound",
      "unknown field (action fields belong on the outer logical rule; nested rules hold conditions only)",
    ]],
  },
  {
    name: "dns action field in nested rule",
    input: withDns({
      servers: [udp()],
      rules: [{
        type: "logical",
        mode: "or",
        rules: [{ domain: "a", rcode: "NXDOMAIN" }],
        action: "predefined",
      }],
    }),
    errors: [[
      "/dns/rules/0/rules/0/rcode",
      "unknown field (action fields belong on the outer logical rule; nested rules hold conditions only)",
    ]],
  },
  {
    name: "logical without mode",
    input: rule({ type: "logical", rules: [{ domain: "a" }], outbound: "direct" }),
    errors: [["/route/rules/0/mode", "missing required field"]],
  },
  {
    name: "logical mode",
    input: rule({ type: "logical", mode: "xor", rules: [{ domain: "a" }], outbound: "direct" }),
    errors: [["/route/rules/0/mode", 'invalid value "xor": expected one of "and", "or"']],
  },
  {
    name: "logical without rules",
    input: rule({ type: "logical", mode: "and", rules: [], outbound: "direct" }),
    errors: [["/route/rules/0/rules", "a logical rule needs at least one nested rule"]],
  },
  {
    name: "rule type",
    input: rule({ type: "xx", outbound: "direct" }),
    errors: [["/route/rules/0/type", 'invalid value "xx": expected one of "default", "logical"']],
  },
  {
    name: "nested rule condition type",
    input: rule({ type: "logical", mode: "or", rules: [{ port: "80" }], outbound: "direct" }),
    errors: [["/route/rules/0/rules/0/port", "expected a port number, or an array of them"]],
  },
  {
    name: "rule port too large",
    input: rule({ port: 70000, outbound: "direct" }),
    errors: [["/route/rules/0/port", "port must be from 0 to 65535"]],
  },
  {
    name: "rule port list entry",
    input: rule({ port: [443, "80"], outbound: "direct" }),
    errors: [["/route/rules/0/port/1", "expected a port number (integer from 0 to 65535)"]],
  },
  {
    name: "rule domain number",
    input: rule({ domain: 5, outbound: "direct" }),
    errors: [["/route/rules/0/domain", "expected a string, or an array of them"]],
  },
  {
    name: "rule ip_version",
    input: rule({ ip_version: 5, outbound: "direct" }),
    errors: [["/route/rules/0/ip_version", "expected 4 or 6"]],
  },
  {
    name: "rule network",
    input: rule({ network: "sctp", outbound: "direct" }),
    errors: [["/route/rules/0/network", 'invalid value "sctp": expected one of "tcp", "udp", "icmp"']],
  },
  {
    name: "rule inbound unknown",
    input: rule({ inbound: "x", outbound: "direct" }),
    errors: [["/route/rules/0/inbound/0", 'unknown inbound tag "x"']],
  },
  {
    name: "rule rule_set unknown",
    input: rule({ rule_set: ["geosite-cn"], outbound: "direct" }),
    errors: [["/route/rules/0/rule_set/0", 'unknown rule-set tag "geosite-cn"']],
  },
  {
    name: "nested rule rule_set unknown",
    input: rule({ type: "logical", mode: "and", rules: [{ rule_set: "a" }], outbound: "direct" }),
    errors: [["/route/rules/0/rules/0/rule_set/0", 'unknown rule-set tag "a"']],
  },
  {
    name: "rule_set_ipcidr_match_source",
    input: rule({ rule_set_ipcidr_match_source: true, domain: "a", outbound: "direct" }),
    errors: [[
      "/route/rules/0/rule_set_ipcidr_match_source",
      'renamed in sing-box 1.10: use "rule_set_ip_cidr_match_source"',
    ]],
  },
  {
    name: "interface_address condition",
    input: rule({ interface_address: { en0: ["10.0.0.0/8"] }, outbound: "direct" }),
    errors: [["/route/rules/0/interface_address", 'the rule condition "interface_address" is not supported']],
  },
  {
    name: "source_geoip condition",
    input: rule({ source_geoip: "private", outbound: "direct" }),
    errors: [["/route/rules/0/source_geoip", 'removed in sing-box 1.12: use "source_ip_cidr" or a rule-set']],
  },
  {
    name: "domain_regex invalid",
    input: rule({ domain_regex: "(", outbound: "direct" }),
    errors: [[
      "/route/rules/0/domain_regex/0",
      'invalid regular expression "(": Invalid regular expression: /(/: Unterminated group',
    ]],
  },
  {
    name: "sniffer unknown",
    input: rule({ action: "sniff", sniffer: ["tls", "smtp"] }),
    errors: [["/route/rules/0/sniffer/1", `unknown protocol "smtp": expected one of ${SNIFFERS}`]],
  },
  {
    name: "sniff timeout zero",
    input: rule({ action: "sniff", timeout: "0ms" }),
    errors: [["/route/rules/0/timeout", "duration must be greater than zero"]],
  },
  {
    name: "skip_rule_set unknown",
    input: rule({ action: "sniff", skip_rule_set: "cn" }),
    errors: [["/route/rules/0/skip_rule_set/0", 'unknown rule-set tag "cn"']],
  },
  {
    name: "resolve server unknown",
    input: rule({ action: "resolve", server: "dns" }),
    errors: [["/route/rules/0/server", 'unknown DNS server tag "dns"']],
  },
  {
    name: "resolve strategy",
    input: rule({ action: "resolve", strategy: "ipv4" }),
    errors: [["/route/rules/0/strategy", `invalid value "ipv4": expected one of ${STRATEGIES}`]],
  },
  {
    name: "route.geoip",
    input: config({ route: { geoip: { path: "geoip.db" } } }),
    errors: [["/route/geoip", "the database settings were removed in sing-box 1.12: use rule-sets"]],
  },
  {
    name: "auto_detect_interface with default_interface",
    input: config({ route: { auto_detect_interface: true, default_interface: "eth0" } }),
    errors: [[
      "/route/default_interface",
      'conflicts with "auto_detect_interface" (also turned on by a TUN inbound with "auto_route"): set one of them',
    ]],
  },
  {
    name: "default_network_strategy without auto_detect_interface",
    input: config({ route: { default_network_strategy: "hybrid" } }),
    errors: [["/route/default_network_strategy", 'requires "auto_detect_interface"']],
  },
  {
    name: "default_mark",
    input: config({ route: { default_mark: "abc" } }),
    errors: [["/route/default_mark", 'invalid routing mark "abc" (use an integer or "0x…" hexadecimal)']],
  },
  {
    name: "default_domain_resolver unknown",
    input: config({ route: { default_domain_resolver: "local" } }),
    errors: [["/route/default_domain_resolver", 'unknown DNS server tag "local"']],
  },
  {
    name: "route unknown field",
    input: config({ route: { finall: "direct" } }),
    errors: [["/route/finall", 'unknown field (did you mean "final"?)']],
  },

  // rule-sets
  {
    name: "local rule-set without format",
    input: config({ route: { rule_set: [{ type: "local", tag: "a", path: "a.txt" }] } }),
    errors: [[
      "/route/rule_set/0/format",
      'missing required field (the file name does not end in ".json" or ".srs")',
    ]],
  },
  {
    name: "remote rule-set without url",
    input: config({ route: { rule_set: [{ type: "remote", tag: "a", format: "binary" }] } }),
    errors: [["/route/rule_set/0/url", "missing required field"]],
  },
  {
    name: "rule-set type",
    input: config({ route: { rule_set: [{ type: "http", tag: "a" }] } }),
    errors: [["/route/rule_set/0/type", 'invalid value "http": expected one of "inline", "local", "remote"']],
  },
  {
    name: "rule-set duplicate tags",
    input: config({
      route: {
        rule_set: [{ type: "local", tag: "a", path: "a.srs" }, { type: "local", tag: "a", path: "b.srs" }],
      },
    }),
    errors: [["/route/rule_set/1/tag", 'duplicate rule-set tag "a" (also used by /route/rule_set/0)']],
  },
  {
    name: "rule-set update_interval",
    input: config({
      route: { rule_set: [{ type: "remote", tag: "a", url: "https://x/a.srs", update_interval: "0s" }] },
    }),
    errors: [["/route/rule_set/0/update_interval", "duration must be greater than zero"]],
  },
  {
    name: "rule-set download_detour unknown",
    input: config({
      route: { rule_set: [{ type: "remote", tag: "a", url: "https://x/a.srs", download_detour: "proxy" }] },
    }),
    errors: [["/route/rule_set/0/download_detour", 'unknown outbound tag "proxy"']],
  },
  {
    name: "rule-set http_client unknown",
    input: config({
      route: { rule_set: [{ type: "remote", tag: "a", url: "https://x/a.srs", http_client: "c" }] },
    }),
    errors: [["/route/rule_set/0/http_client", 'unknown HTTP client tag "c"']],
  },
  {
    name: "inline rule-set rule field",
    input: config({
      route: { rule_set: [{ type: "inline", tag: "a", rules: [{ domain: "a", outbound: "direct" }] }] },
    }),
    errors: [["/route/rule_set/0/rules/0/outbound", "unknown field"]],
  },

  // dns
  {
    name: "dns server without type",
    input: withDns({ servers: [{ server: "1.1.1.1" }] }),
    errors: [["/dns/servers/0/type", "missing required field"]],
  },
  {
    name: "dns server dhcp",
    input: withDns({ servers: [{ type: "dhcp" }] }),
    errors: [["/dns/servers/0/type", 'DNS server type "dhcp" is not supported']],
  },
  {
    name: "dns server unknown type",
    input: withDns({ servers: [{ type: "doh" }] }),
    errors: [["/dns/servers/0/type", 'unknown dns server type "doh"']],
  },
  {
    name: "legacy dns server",
    input: withDns({ servers: [{ tag: "g", address: "tls://8.8.8.8", address_resolver: "x" }] }),
    errors: [[
      "/dns/servers/0/address",
      'the legacy DNS server format was removed in sing-box 1.14: write "type" and "server" instead, for example {"type": "tls", "server": "1.1.1.1"}',
    ]],
  },
  {
    name: "udp server without server",
    input: withDns({ servers: [{ type: "udp" }] }),
    errors: [["/dns/servers/0/server", "missing required field"]],
  },
  {
    name: "https server port zero",
    input: withDns({ servers: [{ type: "https", server: "1.1.1.1", server_port: 0 }] }),
    errors: [["/dns/servers/0/server_port", "port must be from 1 to 65535"]],
  },
  {
    name: "dns duplicate tags",
    input: withDns({ servers: [udp(), udp({ server: "8.8.8.8" })] }),
    errors: [["/dns/servers/1/tag", 'duplicate DNS server tag "dns" (also used by /dns/servers/0)']],
  },
  {
    name: "dns final unknown",
    input: withDns({ servers: [udp()], final: "x" }),
    errors: [["/dns/final", 'unknown DNS server tag "x"']],
  },
  {
    name: "dns rule server unknown",
    input: withDns({ servers: [udp()], rules: [{ domain: "a", server: "x" }] }),
    errors: [["/dns/rules/0/server", 'unknown DNS server tag "x"']],
  },
  {
    name: "dns route rule without server",
    input: withDns({ servers: [udp()], rules: [{ domain: "a" }] }),
    errors: [["/dns/rules/0/server", "missing required field"]],
  },
  {
    name: "dns rule refused condition",
    input: withDns({ servers: [udp()], rules: [{ query_dnssec: true, server: "dns" }] }),
    errors: [["/dns/rules/0/query_dnssec", 'the DNS rule condition "query_dnssec" is not supported']],
  },
  {
    name: "dns rule rcode on route",
    input: withDns({ servers: [udp()], rules: [{ domain: "a", server: "dns", rcode: "NXDOMAIN" }] }),
    errors: [["/dns/rules/0/rcode", 'field belongs to the "predefined" action, not "route"']],
  },
  {
    name: "dns rule action",
    input: withDns({ servers: [udp()], rules: [{ domain: "a", action: "drop" }] }),
    errors: [[
      "/dns/rules/0/action",
      'invalid value "drop": expected one of "route", "evaluate", "respond", "route-options", "reject", "predefined"',
    ]],
  },
  {
    name: "dns rule outbound condition unknown",
    input: withDns({ servers: [udp()], rules: [{ outbound: "proxy", server: "dns" }] }),
    errors: [["/dns/rules/0/outbound/0", 'unknown outbound tag "proxy"']],
  },
  {
    name: "dns rule preferred_by unknown",
    input: withDns({ servers: [udp()], rules: [{ preferred_by: "hosts", server: "dns" }] }),
    errors: [["/dns/rules/0/preferred_by/0", 'unknown DNS server tag "hosts"']],
  },
  {
    name: "dns timeout zero",
    input: withDns({ timeout: "0s" }),
    errors: [["/dns/timeout", "duration must be greater than zero"]],
  },
  {
    name: "dns strategy",
    input: withDns({ strategy: "ipv4" }),
    errors: [["/dns/strategy", `invalid value "ipv4": expected one of ${STRATEGIES}`]],
  },
  {
    name: "dns cache_capacity negative",
    input: withDns({ cache_capacity: -1 }),
    errors: [["/dns/cache_capacity", "must be at least 0"]],
  },
  {
    name: "dns optimistic string",
    input: withDns({ optimistic: "yes" }),
    errors: [["/dns/optimistic", 'expected a boolean or an object with "enabled" and "timeout"']],
  },
  {
    name: "dns optimistic timeout",
    input: withDns({ optimistic: { enabled: true, timeout: "0s" } }),
    errors: [["/dns/optimistic/timeout", "duration must be greater than zero"]],
  },
  {
    name: "dns fakeip object",
    input: withDns({ fakeip: { enabled: true } }),
    errors: [[
      "/dns/fakeip",
      'removed in sing-box 1.14: use a DNS server of type "fakeip" with "inet4_range" and "inet6_range"',
    ]],
  },
  {
    name: "race member unknown",
    input: withDns({ servers: [udp(), { type: "race", tag: "r", servers: ["dns", "x"] }] }),
    errors: [["/dns/servers/1/servers/1", 'unknown DNS server tag "x"']],
  },
  {
    name: "race member itself",
    input: withDns({ servers: [{ type: "race", tag: "r", servers: ["r"] }] }),
    errors: [["/dns/servers/0/servers/0", "a server cannot be its own member"]],
  },
  {
    name: "race without members",
    input: withDns({ servers: [{ type: "sequential", tag: "r", servers: [] }] }),
    errors: [["/dns/servers/0/servers", "needs at least one server"]],
  },
  {
    name: "race cycle",
    input: withDns({
      servers: [{ type: "race", tag: "a", servers: ["b"] }, { type: "sequential", tag: "b", servers: ["a"] }],
    }),
    errors: [["/dns/servers/0/servers", 'server cycle: "a" -> "b" -> "a"']],
  },
  {
    name: "match_response unknown tag",
    input: withDns({ servers: [udp()], rules: [{ match_response: "ev", server: "dns" }] }),
    errors: [[
      "/dns/rules/0/match_response",
      'unknown evaluate tag "ev" (no earlier "evaluate" rule has it)',
    ]],
  },
  {
    name: "respond without evaluate",
    input: withDns({ servers: [udp()], rules: [{ domain: "a", action: "respond" }] }),
    errors: [["/dns/rules/0/action", 'a "respond" rule needs an earlier rule with the "evaluate" action']],
  },
  {
    name: "mdns interface number",
    input: withDns({ servers: [{ type: "mdns", interface: 5 }] }),
    errors: [["/dns/servers/0/interface", "expected an interface name, or an array of them"]],
  },
  {
    name: "hosts predefined value",
    input: withDns({ servers: [{ type: "hosts", predefined: { "a.lan": 1 } }] }),
    errors: [["/dns/servers/0/predefined/a.lan", "expected an address, or an array of them"]],
  },
  {
    name: "dns server detour unknown",
    input: withDns({ servers: [udp({ detour: "proxy" })] }),
    errors: [["/dns/servers/0/detour", 'unknown outbound tag "proxy"']],
  },
  {
    name: "misspelt dns field",
    input: withDns({ stratgy: "ipv4_only" }),
    errors: [["/dns/stratgy", 'unknown field (did you mean "strategy"?)']],
  },

  // APIs, limits and the rest
  {
    name: "api listen public",
    input: config({ api: { listen: "0.0.0.0:9091", secret: "s" } }),
    errors: [[
      "/api/listen",
      'must be a loopback address and port, such as "127.0.0.1:9091", not "0.0.0.0:9091"',
    ]],
  },
  {
    name: "api listen without secret",
    input: config({ api: { listen: "127.0.0.1:9091" } }),
    errors: [["/api/secret", 'missing required field (the API on "listen" needs a secret)']],
  },
  {
    name: "api unknown field",
    input: config({ api: { port: 1 } }),
    errors: [["/api/port", "unknown field"]],
  },
  {
    name: "compat api twice",
    input: config({ compat_api: {}, experimental: { clash_api: {} } }),
    errors: [["/experimental/clash_api", 'the compat API is already given at "/compat_api": keep one']],
  },
  {
    name: "compat api in experimental twice",
    input: config({ experimental: { compat_api: {}, clash_api: {} } }),
    errors: [[
      "/experimental/clash_api",
      'the compat API is already given at "/experimental/compat_api": keep one',
    ]],
  },
  {
    name: "clash api legacy field",
    input: config({ experimental: { clash_api: { store_selected: true } } }),
    errors: [["/experimental/clash_api/store_selected", "unknown field"]],
  },
  {
    name: "compat api controller",
    input: config({ compat_api: { external_controller: "9090" } }),
    errors: [["/compat_api/external_controller", 'expected "host:port", got "9090"']],
  },
  {
    name: "clash api download detour",
    input: config({ experimental: { clash_api: { external_ui_download_detour: "proxy" } } }),
    errors: [["/experimental/clash_api/external_ui_download_detour", 'unknown outbound tag "proxy"']],
  },
  {
    name: "cache_file rdrc_timeout",
    input: config({ experimental: { cache_file: { enabled: true, rdrc_timeout: "0s" } } }),
    errors: [["/experimental/cache_file/rdrc_timeout", "duration must be greater than zero"]],
  },
  {
    name: "user limit zero",
    input: config({ user_limits: { alice: { max_connections: 0 } } }),
    errors: [["/user_limits/alice/max_connections", "must not be 0 (leave the field out to set no limit)"]],
  },
  {
    name: "user limit negative",
    input: config({ user_limits: { alice: { up_mbps: -1 } } }),
    errors: [["/user_limits/alice/up_mbps", "must be greater than zero"]],
  },
  {
    name: "user quota without cache file",
    input: config({ user_limits: { alice: { quota_bytes: 1000000 } } }),
    errors: [[
      "/user_limits/alice/quota_bytes",
      'requires "experimental.cache_file" to be enabled (quotas are kept there)',
    ]],
  },
  {
    name: "user expire_at",
    input: config({ user_limits: { alice: { expire_at: "tomorrow" } } }),
    errors: [[
      "/user_limits/alice/expire_at",
      'expected an RFC 3339 timestamp such as "2030-01-31T00:00:00Z"',
    ]],
  },
  {
    name: "user limit unknown field",
    input: config({ user_limits: { alice: { max_connection: 3 } } }),
    errors: [["/user_limits/alice/max_connection", 'unknown field (did you mean "max_connections"?)']],
  },
  {
    name: "certificate store",
    input: config({ certificate: { store: "windows" } }),
    errors: [[
      "/certificate/store",
      'invalid value "windows": expected one of "system", "mozilla", "chrome", "none"',
    ]],
  },
  {
    name: "ntp port",
    input: config({ ntp: { enabled: true, server_port: 0 } }),
    errors: [["/ntp/server_port", "port must be from 1 to 65535"]],
  },
  {
    name: "ntp interval",
    input: config({ ntp: { interval: "0m" } }),
    errors: [["/ntp/interval", "duration must be greater than zero"]],
  },
  {
    name: "http client without tag",
    input: config({ http_clients: [{}] }),
    errors: [["/http_clients/0/tag", "missing required field"]],
  },
  {
    name: "http client version",
    input: config({ http_clients: [{ tag: "c", version: 4 }] }),
    errors: [["/http_clients/0/version", "expected 1, 2 or 3"]],
  },
  {
    name: "service type",
    input: config({ services: [{ type: "ssm-api" }] }),
    errors: [["/services/0/type", 'service type "ssm-api" is not supported']],
  },
  {
    name: "remote provider without url",
    input: config({ outbound_providers: [{ type: "remote", tag: "p" }] }),
    errors: [["/outbound_providers/0/url", "missing required field"]],
  },
  {
    name: "provider filter regex",
    input: config({ outbound_providers: [{ type: "local", tag: "p", path: "p.yaml", filter: "[" }] }),
    errors: [[
      "/outbound_providers/0/filter/0",
      'invalid regular expression "[": Invalid regular expression: /[/: Unterminated character class',
    ]],
  },
  {
    name: "inline provider pending outbound",
    input: config({
      outbound_providers: [{ type: "inline", tag: "p", outbounds: [{ type: "tuic", uuid: 1 }] }],
    }),
    errors: [["/outbound_providers/0/outbounds/0/type", 'outbound type "tuic" is not implemented yet']],
  },
  {
    name: "provider type",
    input: config({ outbound_providers: [{ type: "http", tag: "p" }] }),
    errors: [[
      "/outbound_providers/0/type",
      'invalid value "http": expected one of "remote", "local", "inline"',
    ]],
  },
  {
    name: "provider duplicate tags",
    input: config({
      outbound_providers: [{ type: "local", tag: "p", path: "a" }, { type: "local", tag: "p", path: "b" }],
    }),
    errors: [[
      "/outbound_providers/1/tag",
      'duplicate outbound provider tag "p" (also used by /outbound_providers/0)',
    ]],
  },
  {
    name: "provider health check interval",
    input: config({
      outbound_providers: [{ type: "local", tag: "p", path: "a", health_check: { interval: "0s" } }],
    }),
    errors: [["/outbound_providers/0/health_check/interval", "duration must be greater than zero"]],
  },
  {
    name: "several errors at once",
    input: {
      log: { level: "loud" },
      inbounds: [{ type: "mixed", listen_port: "x" }],
      outbounds: [{ type: "tuic" }],
      route: { rules: [{ domian: "a" }] },
    },
    errors: [
      ["/log/level", `invalid value "loud": expected one of ${LEVELS}`],
      ["/inbounds/0/listen_port", "expected a port number (integer from 0 to 65535)"],
      ["/outbounds/0/type", 'outbound type "tuic" is not implemented yet'],
      ["/route/rules/0/domian", 'unknown field (did you mean "domain"?)'],
    ],
  },
];

Deno.test("bad configurations report every error with its path", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, () => {
      const text = typeof c.input === "string" ? c.input : JSON.stringify(c.input, null, 2);
      const result = checkConfig(text);
      assertEquals(result.errors.map((e) => [e.path, e.detail]), c.errors);
      assertEquals(result.model, undefined);
      if (c.warnings) assertEquals(result.warnings.map((w) => [w.path, w.message]), c.warnings);
    });
  }
});

Deno.test("bad configuration table has at least 100 cases", () => {
  if (CASES.length < 100) throw new Error(`only ${CASES.length} cases`);
});
