/** A rule-set's rules in sing-box's headless-rule JSON shape, whatever file format they came from. */
export interface PlainRule {
  type?: "default" | "logical";
  mode?: "and" | "or";
  rules?: PlainRule[];
  invert?: boolean;
  query_type?: (number | string)[];
  network?: string[];
  domain?: string[];
  domain_suffix?: string[];
  domain_keyword?: string[];
  domain_regex?: string[];
  source_ip_cidr?: string[];
  ip_cidr?: string[];
  source_port?: number[];
  source_port_range?: string[];
  port?: number[];
  port_range?: string[];
  process_name?: string[];
  process_path?: string[];
  process_path_regex?: string[];
  package_name?: string[];
  network_type?: string[];
  network_is_expensive?: boolean;
  network_is_constrained?: boolean;
  wifi_ssid?: string[];
  wifi_bssid?: string[];
}

export interface PlainRuleSet {
  /** sing-box rule-set version (1, 2, 3, 4). */
  version: number;
  rules: PlainRule[];
}
