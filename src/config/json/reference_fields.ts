/**
 * The one table of sing-box 1.14 fields (and a few older ones real configurations still carry)
 * that we do not implement. Each is either dropped with a warning, when ignoring it changes
 * neither routing nor security, or refused with an error. The loader applies it before schema
 * validation, so the model never holds these fields; docs/configuration.md lists the same table.
 */

export type Decision = "warn" | "refuse";

export interface ReferenceField {
  /** Stable id for tests and docs. */
  id: string;
  /** Where the field is written: JSON pointer patterns, `*` one level, `**` any number of levels. */
  paths: readonly string[];
  decision: Decision;
  /** What the user reads after the path (warnings are prefixed by "ignored: "). */
  reason: string;
  /** Only when the object holding the field has one of these `type` values. */
  types?: readonly string[];
  /** The whole item holding the field is refused: no other error is reported for it. */
  refusesItem?: boolean;
  /** Short description of `paths` for the docs, when they are many. */
  where?: string;
  /** Only when the field's value passes this test (e.g. a block with `enabled: true`). */
  when?: (value: unknown) => boolean;
  /** Describes `when` for the docs. */
  whenText?: string;
}

/** A block that is switched on: `{"enabled": true, …}`. */
const enabledBlock = (v: unknown) =>
  typeof v === "object" && v !== null && (v as { enabled?: unknown }).enabled === true;
const nonEmpty = (v: unknown) => v !== undefined && v !== null && v !== "";

/** Objects taking listen fields ("listen fields" in the docs). */
const LISTEN = ["/inbounds/*"];
/** Objects taking dial fields ("dial fields" in the docs). */
const DIAL = [
  "/outbounds/*",
  "/dns/servers/*",
  "/ntp",
  "/http_clients/*",
  "/route/rule_set/*/http_client",
  "/outbound_providers/*/http_client",
  "/outbound_providers/*/outbounds/*",
];
const ROUTE_RULES = ["/route/rules/*", "/route/rules/**/rules/*"];
const DNS_RULES = ["/dns/rules/*", "/dns/rules/**/rules/*"];

const at = (bases: readonly string[], field: string) => bases.map((b) => `${b}/${field}`);

export const REFERENCE_FIELDS: readonly ReferenceField[] = [
  {
    id: "certificate_providers",
    paths: ["/certificate_providers"],
    decision: "refuse",
    reason: "certificate providers (ACME and others) are not supported",
  },
  {
    id: "network_namespaces",
    paths: ["/network_namespaces"],
    decision: "refuse",
    reason: "Linux network namespaces are not supported",
  },
  {
    id: "netns",
    where: "listen fields and dial fields",
    paths: [...at(LISTEN, "netns"), ...at(DIAL, "netns")],
    decision: "refuse",
    reason: "network namespaces are not supported",
  },
  {
    id: "tcp_multi_path",
    where: "listen fields and dial fields",
    paths: [...at(LISTEN, "tcp_multi_path"), ...at(DIAL, "tcp_multi_path")],
    decision: "warn",
    reason: "multipath TCP is not available; plain TCP is used",
  },
  {
    id: "udp_fragment",
    where: "listen fields and dial fields",
    paths: [...at(LISTEN, "udp_fragment"), ...at(DIAL, "udp_fragment")],
    decision: "warn",
    reason: "UDP fragmentation cannot be set; the system default applies",
  },
  {
    id: "bind_address_no_port",
    where: "dial fields",
    paths: at(DIAL, "bind_address_no_port"),
    decision: "warn",
    reason: "the system reserves the source port as usual",
  },
  {
    id: "domain_strategy (dial)",
    where: "dial fields",
    paths: at(DIAL, "domain_strategy"),
    decision: "refuse",
    reason:
      'removed in sing-box 1.14: use "domain_resolver": {"server": "<dns server tag>", "strategy": "<strategy>"}',
  },
  {
    id: "set_system_proxy",
    paths: at(LISTEN, "set_system_proxy"),
    types: ["http", "mixed"],
    decision: "warn",
    reason: "the system proxy settings are not changed",
  },
  {
    id: "sniff (inbound)",
    paths: at(LISTEN, "sniff"),
    decision: "refuse",
    reason: 'removed in sing-box 1.13: use a route rule with the "sniff" action',
  },
  {
    id: "sniff_override_destination",
    paths: at(LISTEN, "sniff_override_destination"),
    decision: "refuse",
    reason: 'removed in sing-box 1.13: use "override_destination" on a route rule with the "sniff" action',
  },
  {
    id: "sniff_timeout",
    paths: at(LISTEN, "sniff_timeout"),
    decision: "refuse",
    reason: 'removed in sing-box 1.13: use "timeout" on a route rule with the "sniff" action',
  },
  {
    id: "domain_strategy (inbound)",
    paths: at(LISTEN, "domain_strategy"),
    decision: "refuse",
    reason: 'removed in sing-box 1.13: use a route rule with the "resolve" action',
  },
  {
    id: "udp_disable_domain_unmapping (inbound)",
    paths: at(LISTEN, "udp_disable_domain_unmapping"),
    decision: "refuse",
    reason:
      'removed in sing-box 1.13: use "udp_disable_domain_unmapping" on a route rule with the "route-options" action',
  },
  {
    id: "override_address (direct outbound)",
    paths: ["/outbounds/*/override_address", "/outbounds/*/override_port"],
    types: ["direct"],
    decision: "refuse",
    reason:
      'removed in sing-box 1.13: use a route rule with the "route-options" action and "override_address" or "override_port"',
  },
  {
    id: "multiplex",
    paths: [
      "/inbounds/*/multiplex",
      "/outbounds/*/multiplex",
      "/outbound_providers/*/outbounds/*/multiplex",
    ],
    when: enabledBlock,
    whenText: "when enabled",
    decision: "refuse",
    reason: "multiplexing (smux, yamux, h2mux) is not implemented yet",
  },
  {
    id: "tls utls/ech/reality",
    where: "tls blocks",
    paths: ["utls", "ech", "reality"].flatMap((f) => [
      `/inbounds/*/tls/${f}`,
      `/outbounds/*/tls/${f}`,
      `/outbound_providers/*/outbounds/*/tls/${f}`,
    ]),
    when: enabledBlock,
    whenText: "when enabled",
    decision: "refuse",
    reason: "uTLS, ECH and REALITY are not implemented yet (they arrive with advanced TLS)",
  },
  {
    id: "tls acme",
    paths: ["/inbounds/*/tls/acme"],
    decision: "refuse",
    reason: "ACME certificate issuance is not supported: give certificate_path and key_path",
  },
  {
    id: "vless flow",
    paths: ["/inbounds/*/users/*/flow", "/outbounds/*/flow", "/outbound_providers/*/outbounds/*/flow"],
    when: nonEmpty,
    whenText: "when set",
    decision: "refuse",
    reason: 'VLESS "flow" (xtls-rprx-vision) is not implemented yet (it arrives with advanced TLS)',
  },
  {
    id: "udp_over_tcp",
    paths: ["/outbounds/*/udp_over_tcp", "/outbound_providers/*/outbounds/*/udp_over_tcp"],
    decision: "refuse",
    reason: "UDP over TCP is not implemented yet",
  },
  {
    id: "legacy dns server",
    paths: ["/dns/servers/*/address"],
    decision: "refuse",
    refusesItem: true,
    reason:
      'the legacy DNS server format was removed in sing-box 1.14: write "type" and "server" instead, for example {"type": "tls", "server": "1.1.1.1"}',
  },
  {
    id: "dns.fakeip",
    paths: ["/dns/fakeip"],
    decision: "refuse",
    reason:
      'removed in sing-box 1.14: use a DNS server of type "fakeip" with "inet4_range" and "inet6_range"',
  },
  {
    id: "dns.independent_cache",
    paths: ["/dns/independent_cache"],
    decision: "warn",
    reason: "deprecated; each server's answers are always kept apart",
  },
  {
    id: "dns rule method",
    where: "DNS rules, nested ones too",
    paths: at(DNS_RULES, "method"),
    decision: "warn",
    reason: "deprecated; a rejected query is rejected anyway",
  },
  {
    id: "dns rule no_drop",
    where: "DNS rules, nested ones too",
    paths: at(DNS_RULES, "no_drop"),
    decision: "warn",
    reason: "deprecated; a rejected query is rejected anyway",
  },
  ...["query_client_subnet", "query_dnssec", "rule_set_ip_cidr_accept_empty"].map((f): ReferenceField => ({
    id: `dns rule ${f}`,
    where: "DNS rules, nested ones too",
    paths: at(DNS_RULES, f),
    decision: "refuse",
    reason: `the DNS rule condition "${f}" is not supported`,
  })),
  ...["interface_address", "network_interface_address", "default_interface_address"].map((
    f,
  ): ReferenceField => ({
    id: `rule ${f}`,
    where: "route and DNS rules",
    paths: [...at(ROUTE_RULES, f), ...at(DNS_RULES, f)],
    decision: "refuse",
    reason: `the rule condition "${f}" is not supported`,
  })),
  {
    id: "rule_set_ipcidr_match_source",
    where: "route and DNS rules",
    paths: [
      ...at(ROUTE_RULES, "rule_set_ipcidr_match_source"),
      ...at(DNS_RULES, "rule_set_ipcidr_match_source"),
    ],
    decision: "refuse",
    reason: 'renamed in sing-box 1.10: use "rule_set_ip_cidr_match_source"',
  },
  {
    id: "source_geoip",
    where: "route and DNS rules",
    paths: [...at(ROUTE_RULES, "source_geoip"), ...at(DNS_RULES, "source_geoip")],
    decision: "refuse",
    reason: 'removed in sing-box 1.12: use "source_ip_cidr" or a rule-set',
  },
  {
    id: "route.geoip and route.geosite",
    paths: ["/route/geoip", "/route/geosite"],
    decision: "refuse",
    reason: "the database settings were removed in sing-box 1.12: use rule-sets",
  },
  {
    id: "route.override_android_vpn",
    paths: ["/route/override_android_vpn"],
    decision: "warn",
    reason: "it applies on Android only",
  },
  {
    id: "experimental.v2ray_api",
    paths: ["/experimental/v2ray_api"],
    decision: "warn",
    reason: "the V2Ray statistics API is not provided; the control API reports traffic",
  },
  {
    id: "services api",
    paths: ["/services/*"],
    types: ["api"],
    decision: "warn",
    reason: 'the "api" service is not provided; use the top-level "api" or "compat_api" object',
  },
];

/** Text of a table decision as reported. */
export function referenceMessage(entry: ReferenceField): string {
  return entry.decision === "warn" ? `ignored: ${entry.reason}` : entry.reason;
}
