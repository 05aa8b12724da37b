/**
 * The `type` values of each kind of item: those the model describes, those the spec allows but
 * that are not implemented yet, and well-known reference types we refuse (with the reason).
 */

export type ItemKind = "inbound" | "outbound" | "endpoint" | "dns server" | "service";

export interface KindTypes {
  /** Types the model describes fully. */
  described: readonly string[];
  /** Types of the spec's "Allowed type values" table that are not described yet. */
  pending: readonly string[];
  /** Reference-format types we refuse, with a message. */
  refused: Readonly<Record<string, string>>;
}

export const INBOUND_TYPES: KindTypes = {
  described: ["direct", "http", "mixed", "shadowsocks", "socks", "trojan", "vless", "vmess"],
  pending: [
    "anytls",
    "hc",
    "hysteria2",
    "mptp",
    "nf",
    "redirect",
    "shadowtls",
    "tproxy",
    "tuic",
    "tun",
  ],
  refused: {
    naive: 'inbound type "naive" is not supported',
    hysteria: 'inbound type "hysteria" (version 1) is not supported: use "hysteria2"',
    snell: 'inbound type "snell" is not supported',
    cloudflared: 'inbound type "cloudflared" is not supported',
    shadowsocksr: 'inbound type "shadowsocksr" was removed from the reference format and is not supported',
  },
};

export const OUTBOUND_TYPES: KindTypes = {
  described: [
    "block",
    "direct",
    "fallback",
    "http",
    "load-balance",
    "selector",
    "shadowsocks",
    "socks",
    "trojan",
    "urltest",
    "vless",
    "vmess",
  ],
  pending: [
    "anytls",
    "hysteria2",
    "mptp",
    "network",
    "pass",
    "plugin",
    "redirect",
    "shadowtls",
    "smart",
    "tryall",
    "tuic",
  ],
  refused: {
    tor: 'outbound type "tor" is not supported',
    ssh: 'outbound type "ssh" is not supported',
    naive: 'outbound type "naive" is not supported',
    hysteria: 'outbound type "hysteria" (version 1) is not supported: use "hysteria2"',
    snell: 'outbound type "snell" is not supported',
    bridge: 'outbound type "bridge" is not supported',
    shadowsocksr: 'outbound type "shadowsocksr" was removed from the reference format and is not supported',
    wireguard:
      'outbound type "wireguard" was removed in sing-box 1.13: use a "wireguard" endpoint in "endpoints"',
    dns: 'outbound type "dns" was removed in sing-box 1.13: use a route rule with the "hijack-dns" action',
  },
};

export const ENDPOINT_TYPES: KindTypes = {
  described: [],
  pending: ["wireguard"],
  refused: {
    tailscale: 'endpoint type "tailscale" is not supported',
    "openvpn-client": 'endpoint type "openvpn-client" is not supported',
    "openvpn-server": 'endpoint type "openvpn-server" is not supported',
    openconnect: 'endpoint type "openconnect" is not supported',
  },
};

export const DNS_SERVER_TYPES: KindTypes = {
  described: [
    "udp",
    "tcp",
    "tls",
    "https",
    "quic",
    "h3",
    "local",
    "hosts",
    "fakeip",
    "mdns",
    "race",
    "sequential",
  ],
  pending: [],
  refused: {
    dhcp: 'DNS server type "dhcp" is not supported',
    resolved: 'DNS server type "resolved" is not supported',
    tailscale: 'DNS server type "tailscale" is not supported',
    openvpn: 'DNS server type "openvpn" is not supported',
    openconnect: 'DNS server type "openconnect" is not supported',
    predefined: 'DNS server type "predefined" is not supported: use a DNS rule with the "predefined" action',
  },
};

/** Message for a `type` value the model does not describe, or undefined when it does. */
export function typeProblem(kind: ItemKind, types: KindTypes, type: string): string | undefined {
  if (types.described.includes(type)) return undefined;
  if (types.pending.includes(type)) return `${kind} type "${type}" is not implemented yet`;
  return types.refused[type] ?? `unknown ${kind} type "${type}"`;
}
