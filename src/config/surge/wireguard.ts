/**
 * `Name = wireguard, section-name = X` with its `[WireGuard X]` section (private-key, self-ip,
 * self-ip-v6, mtu, peer = (public-key, endpoint, allowed-ips, keepalive, preshared-key,
 * client-id)) → a native WireGuard endpoint.
 */
import { type WgPeer, wgReserved, wireguardEndpoint } from "../links/wireguard.ts";
import type { Json } from "../links/types.ts";
import { Items, keyValue } from "./line.ts";
import type { Profile } from "./source.ts";

/** Keys of the section that change nothing svc does (DNS of the tunnel is the DNS section's job). */
const IGNORED = new Set(["dns-server", "prefer-ipv6"]);

export function wireguardProxy(name: string, it: Items, profile: Profile): Json {
  const sectionName = it.get("section-name");
  if (!sectionName) throw new Error('missing "section-name"');
  const section = `WireGuard ${sectionName}`;
  const lines = profile.sections.get(section);
  if (!lines) throw new Error(`no [${section}] section`);
  const keys = new Map<string, string>();
  const peers: WgPeer[] = [];
  for (const line of lines) {
    const kv = keyValue(line.text);
    if (!kv) throw new Error(`[${section}] line ${line.loc.line}: expected "key = value"`);
    const key = kv[0].toLowerCase();
    if (key === "peer") peers.push(peer(kv[1], section));
    else if (IGNORED.has(key)) continue;
    else if (["private-key", "self-ip", "self-ip-v6", "mtu"].includes(key)) keys.set(key, kv[1]);
    else throw new Error(`[${section}]: unknown key "${kv[0]}"`);
  }
  if (peers.length === 0) throw new Error(`[${section}] has no peer`);
  const mtu = keys.get("mtu");
  if (mtu !== undefined && !/^\d{3,5}$/.test(mtu)) throw new Error(`[${section}]: invalid mtu "${mtu}"`);
  const address = [keys.get("self-ip"), keys.get("self-ip-v6")].filter((a): a is string => !!a);
  try {
    return wireguardEndpoint(
      name,
      keys.get("private-key") ?? "",
      address,
      peers,
      mtu ? Number(mtu) : undefined,
    );
  } catch (e) {
    throw new Error(`[${section}]: ${(e as Error).message}`);
  }
}

function peer(text: string, section: string): WgPeer {
  const body = text.trim();
  if (!body.startsWith("(") || !body.endsWith(")")) {
    throw new Error(`[${section}]: peer must be "(key = value, ...)"`);
  }
  const it = new Items(body.slice(1, -1));
  const endpoint = it.get("endpoint") ?? "";
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(endpoint);
  if (!m) throw new Error(`[${section}]: peer endpoint must be "host:port", got "${endpoint}"`);
  const keepalive = it.get("keepalive");
  const clientId = it.get("client-id");
  const result: WgPeer = {
    server: m[1].replace(/^\[|\]$/g, ""),
    port: Number(m[2]),
    publicKey: it.get("public-key") ?? "",
    preSharedKey: it.get("preshared-key"),
    allowedIps: it.get("allowed-ips")?.split(",").map((s) => s.trim()).filter(Boolean),
    keepalive: keepalive && /^\d{1,5}$/.test(keepalive) ? Number(keepalive) : undefined,
    reserved: clientId ? wgReserved(clientId.replaceAll("/", ",")) : undefined,
  };
  const unused = it.unused();
  if (unused.length) throw new Error(`[${section}]: unknown peer key "${unused[0]}"`);
  return result;
}
