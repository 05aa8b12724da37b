/**
 * `wireguard://` (`wg://`) links, as v2rayN, Shadowrocket and sing-box tools write them:
 * `wireguard://PRIVATE_KEY@host:port/?publickey=…&address=10.0.0.2/32,fd00::2/128&mtu=1420
 * &reserved=1,2,3&presharedkey=…&allowedips=…&keepalive=25#name`. sing-box 1.14 has WireGuard as an
 * endpoint (the outbound was removed), so this yields an endpoint object; not implemented by the
 * engine yet.
 */
import { commaList, parsePort, pctDecode, requireHost, splitLink } from "./text.ts";
import { compact, type Json, LinkError } from "./types.ts";

/** Interface addresses with a prefix length (a bare address gets /32 or /128). */
export function wgAddresses(list: string[]): string[] {
  return list.map((a) => (a.includes("/") ? a : a.includes(":") ? `${a}/128` : `${a}/32`));
}

/** `reserved` as three bytes: "1,2,3" or base64 of three bytes. */
export function wgReserved(v: unknown): number[] | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  let bytes: number[];
  if (Array.isArray(v)) bytes = v.map((x) => Number(x));
  else if (typeof v === "string" && v.includes(",")) bytes = v.split(",").map((x) => Number(x.trim()));
  else if (typeof v === "string") {
    const bin = (() => {
      try {
        return atob(v.trim());
      } catch {
        return "";
      }
    })();
    bytes = [...bin].map((c) => c.charCodeAt(0));
  } else bytes = [];
  if (bytes.length !== 3 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255)) {
    throw new LinkError(`invalid reserved bytes "${String(v).slice(0, 40)}": expected three numbers 0-255`);
  }
  return bytes;
}

/** Checks a WireGuard key is 32 bytes of base64 and returns it. */
export function wgKey(v: string | undefined, what: string): string {
  if (!v) throw new LinkError(`missing ${what}`);
  const t = v.trim();
  // 32 bytes are 43 base64 digits and one "=" of padding.
  if (!/^[A-Za-z0-9+/]{43}=$/.test(t)) throw new LinkError(`invalid ${what}: expected 32 bytes of base64`);
  return t;
}

export interface WgPeer {
  server: string;
  port: number;
  publicKey: string;
  preSharedKey?: string;
  allowedIps?: string[];
  keepalive?: number;
  reserved?: number[];
}

export function wireguardEndpoint(
  tag: string,
  privateKey: string,
  address: string[],
  peers: WgPeer[],
  mtu?: number,
): Json {
  if (address.length === 0) throw new LinkError("missing the interface address");
  return compact({
    type: "wireguard",
    tag,
    mtu,
    address: wgAddresses(address),
    private_key: wgKey(privateKey, "private key"),
    peers: peers.map((p) =>
      compact({
        address: p.server,
        port: p.port,
        public_key: wgKey(p.publicKey, "public key"),
        pre_shared_key: p.preSharedKey ? wgKey(p.preSharedKey, "pre-shared key") : undefined,
        allowed_ips: p.allowedIps ?? ["0.0.0.0/0", "::/0"],
        persistent_keepalive_interval: p.keepalive,
        reserved: p.reserved,
      })
    ),
  });
}

function smallInt(v: string | undefined, what: string, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = /^\d{1,5}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 0 && n <= max)) throw new LinkError(`invalid ${what} "${v.slice(0, 20)}"`);
  return n;
}

export function parseWireguard(link: string): Json {
  const parts = splitLink(link);
  const p = parts.params;
  return wireguardEndpoint(
    parts.name,
    pctDecode(parts.user ?? ""),
    commaList(p.get("address", "ip")) ?? [],
    [{
      server: requireHost(parts.host),
      port: parsePort(parts.portText, 51820),
      publicKey: p.get("publickey", "publicKey", "public_key", "peer") ?? "",
      preSharedKey: p.get("presharedkey", "preSharedKey", "psk"),
      allowedIps: commaList(p.get("allowedips", "allowed_ips")),
      keepalive: smallInt(p.get("keepalive"), "keepalive", 65535),
      reserved: wgReserved(p.get("reserved")),
    }],
    smallInt(p.get("mtu"), "MTU", 65535),
  );
}
