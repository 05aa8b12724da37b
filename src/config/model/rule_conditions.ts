/**
 * Condition fields shared by route rules and DNS rules (sing-box 1.14 rule items plus our
 * extensions). Every list may be written as a single value.
 */
import { z } from "zod";
import { listable, networkKind, port, strings } from "./common.ts";

const ports = () => listable(port(), "a port number");

/** Conditions route rules and DNS rules have in common. */
export const commonConditionShape = {
  inbound: strings().optional(),
  ip_version: z.union([z.literal(4), z.literal(6)], { error: "expected 4 or 6" }).optional(),
  auth_user: strings().optional(),
  protocol: strings().optional(),
  domain: strings().optional(),
  domain_suffix: strings().optional(),
  domain_keyword: strings().optional(),
  domain_regex: strings().optional(),
  source_ip_cidr: strings().optional(),
  source_ip_is_private: z.boolean().optional(),
  ip_cidr: strings().optional(),
  ip_is_private: z.boolean().optional(),
  source_port: ports().optional(),
  source_port_range: strings().optional(),
  port: ports().optional(),
  port_range: strings().optional(),
  process_name: strings().optional(),
  process_path: strings().optional(),
  process_path_regex: strings().optional(),
  package_name: strings().optional(),
  package_name_regex: strings().optional(),
  user: strings().optional(),
  user_id: listable(z.int().min(0), "a user id").optional(),
  /** Mode of the dashboard-compatible API; sing-box calls it `clash_mode` (normalised to this). */
  compat_mode: z.string().optional(),
  clash_mode: z.string().optional(),
  network_type: listable(networkKind(), "a network type").optional(),
  network_is_expensive: z.boolean().optional(),
  network_is_constrained: z.boolean().optional(),
  wifi_ssid: strings().optional(),
  wifi_bssid: strings().optional(),
  source_mac_address: strings().optional(),
  source_hostname: strings().optional(),
  preferred_by: strings().optional(),
  rule_set: strings().optional(),
  rule_set_ip_cidr_match_source: z.boolean().optional(),
  invert: z.boolean().default(false),
  // Extensions.
  geosite: strings().optional(),
  /** `site:<file>:<code>` or `ip:<file>:<code>` lookups in external data files. */
  external: strings().optional(),
  process_name_regex: strings().optional(),
  wifi_ssid_regex: strings().optional(),
  wifi_bssid_regex: strings().optional(),
  network_gateway: strings().optional(),
  network_mcc_mnc: strings().optional(),
};

/** Route rules only: connection metadata DNS queries do not have. */
export const routeOnlyConditionShape = {
  network: listable(z.enum(["tcp", "udp", "icmp"]), '"tcp", "udp" or "icmp"').optional(),
  /** Sniffed client kind (QUIC, SSH). */
  client: strings().optional(),
  // Extensions.
  /** mihomo IP-SUFFIX: `address/bits` matches addresses whose last bits are the same. */
  ip_suffix: strings().optional(),
  source_ip_suffix: strings().optional(),
  geoip: strings().optional(),
  ip_asn: listable(z.union([z.int().min(0), z.string()]), "an AS number").optional(),
  /** IP conditions do not resolve a domain destination to match. */
  no_resolve: z.boolean().optional(),
};

/** Moves `clash_mode` to `compat_mode` (the model has one name). */
export function normaliseMode<T extends { clash_mode?: string; compat_mode?: string }>(
  v: T,
): Omit<T, "clash_mode"> {
  const { clash_mode, ...rest } = v;
  return clash_mode === undefined ? rest : { ...rest, compat_mode: rest.compat_mode ?? clash_mode };
}

/** Fields that modify how conditions match but are not conditions themselves. */
export const CONDITION_MODIFIERS: readonly string[] = [
  "invert",
  "no_resolve",
  "rule_set_ip_cidr_match_source",
  "ip_match_all",
  "type",
];
