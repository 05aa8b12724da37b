/** What is known about one connection; inbounds fill the first part, the router the rest. */

/** A host (IP literal or domain name, never bracketed) and a port. */
export interface Address {
  host: string;
  port: number;
}

export type Network = "tcp" | "udp";

export interface Metadata {
  /** Tag and type of the inbound the connection came in through. */
  inbound: string;
  inboundType: string;
  network: Network;
  source: Address;
  /** The destination as the client asked for it, after `override_*` rewrites. */
  destination: Address;
  /** The original destination before any override, kept for the tracker and APIs. */
  originalDestination?: Address;
  /** Name the user authenticated as on the inbound (`auth_user`). */
  user?: string;
  /** Sniffed protocol: tls, http, quic, dns, bittorrent, ssh, rdp, stun, ntp, dtls. */
  protocol?: string;
  /** Sniffed client kind (QUIC: chromium, safari, firefox, quic-go; SSH: client software). */
  client?: string;
  /** Domain learned by sniffing (SNI, Host); routing matches it when the destination is an address. */
  sniffedDomain?: string;
  /** Addresses the `resolve` action found for a domain destination. */
  resolvedAddresses?: string[];
  /** Per-connection options set by `route-options` and friends. */
  udpTimeoutMs?: number;
  /** For the engine's own DNS lookups: the outbound the lookup is made for (DNS `outbound` condition). */
  outbound?: string;
  /** Cached result of `route.rules` sniffing so later sniff actions do not read twice. */
  sniffDone?: boolean;
}

/** The domain a rule's domain conditions look at: the sniffed one, else the requested name (as sing-box). */
export function domainOf(m: Metadata): string | undefined {
  return m.sniffedDomain ?? (isIpLiteral(m.destination.host) ? undefined : m.destination.host);
}

export function isIpLiteral(host: string): boolean {
  return host.includes(":") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}
