/** Names resolved over the local link by multicast DNS: `.local` and the link-local reverse zones. */
const REVERSE_ZONES = [
  "254.169.in-addr.arpa",
  "8.e.f.ip6.arpa",
  "9.e.f.ip6.arpa",
  "a.e.f.ip6.arpa",
  "b.e.f.ip6.arpa",
];

export function isLinkLocalName(name: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  return n === "local" || n.endsWith(".local") ||
    REVERSE_ZONES.some((z) => n === z || n.endsWith(`.${z}`));
}
