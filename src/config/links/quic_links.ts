/**
 * QUIC-based links: `hysteria2://` (`hy2://`) and `tuic://`. Both always use TLS. Neither type is
 * implemented by the engine yet; the sing-box JSON is produced all the same.
 */
import { commaList, parsePort, pctDecode, requireHost, splitLink } from "./text.ts";
import { tlsBlock } from "./tls_transport.ts";
import { compact, type Json, LinkError } from "./types.ts";

/**
 * Hysteria 2 port lists ("443", "443,5000-6000") into sing-box's `server_port` and
 * `server_ports` ("5000:6000"). The first single port is the main one.
 */
export function hysteriaPorts(text: string): { server_port: number; server_ports?: string[] } {
  const items = text.split(",").map((s) => s.trim()).filter((s) => s);
  if (items.length === 0) return { server_port: 443 };
  let main: number | undefined;
  const ranges: string[] = [];
  for (const item of items.slice(0, 256)) {
    const r = /^(\d+)[-:](\d+)$/.exec(item);
    if (r) {
      const a = parsePort(r[1]), b = parsePort(r[2]);
      if (a > b) throw new LinkError(`invalid port range "${item}"`);
      ranges.push(`${a}:${b}`);
    } else if (main === undefined) main = parsePort(item);
    else ranges.push(`${parsePort(item)}:${parsePort(item)}`);
  }
  return {
    server_port: main ?? Number(ranges[0].split(":")[0]),
    server_ports: ranges.length ? ranges : undefined,
  };
}

function mbps(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d{1,6})\s*(mbps)?$/i.exec(v.trim());
  if (!m) throw new LinkError(`invalid bandwidth "${v.slice(0, 40)}": expected Mbps as a number`);
  return Number(m[1]);
}

export function parseHysteria2(link: string): Json {
  const parts = splitLink(link);
  const p = parts.params;
  if (p.get("pinSHA256")) throw new LinkError("certificate pinning (pinSHA256) is not supported");
  const obfs = p.get("obfs");
  if (obfs && obfs !== "salamander") {
    throw new LinkError(`hysteria2 obfs "${obfs.slice(0, 40)}" is not supported`);
  }
  const ports = hysteriaPorts(p.get("mport") ? `${parts.portText},${p.get("mport")}` : parts.portText);
  return compact({
    type: "hysteria2",
    tag: parts.name,
    server: requireHost(parts.host),
    ...ports,
    up_mbps: mbps(p.get("upmbps", "up")),
    down_mbps: mbps(p.get("downmbps", "down")),
    obfs: obfs ? { type: "salamander", password: p.get("obfs-password") ?? "" } : undefined,
    password: pctDecode(parts.user ?? ""),
    tls: tlsBlock({
      sni: p.get("sni", "peer"),
      insecure: p.flag("insecure", "allowInsecure"),
      alpn: commaList(p.get("alpn")),
      fingerprint: p.get("fp"),
    }),
  });
}

const CONGESTION = new Set(["cubic", "new_reno", "bbr"]);

export function parseTuic(link: string): Json {
  const parts = splitLink(link);
  const p = parts.params;
  const user = pctDecode(parts.user ?? "");
  const colon = user.indexOf(":");
  if (colon <= 0) throw new LinkError('expected "uuid:password" in the user info');
  const cc = p.get("congestion_control", "congestion-control");
  if (cc && !CONGESTION.has(cc)) throw new LinkError(`unknown congestion control "${cc.slice(0, 40)}"`);
  const relay = p.get("udp_relay_mode", "udp-relay-mode");
  if (relay && relay !== "native" && relay !== "quic") {
    throw new LinkError(`unknown UDP relay mode "${relay.slice(0, 40)}"`);
  }
  return compact({
    type: "tuic",
    tag: parts.name,
    server: requireHost(parts.host),
    server_port: parsePort(parts.portText),
    uuid: user.slice(0, colon),
    password: user.slice(colon + 1),
    congestion_control: cc,
    udp_relay_mode: relay,
    zero_rtt_handshake: p.flag("reduce_rtt", "zero_rtt_handshake") || undefined,
    tls: tlsBlock({
      sni: p.get("sni"),
      insecure: p.flag("allow_insecure", "insecure", "allowInsecure"),
      alpn: commaList(p.get("alpn")),
      disableSni: p.flag("disable_sni"),
    }),
  });
}
