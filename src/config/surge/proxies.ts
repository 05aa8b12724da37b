/**
 * `[Proxy]` lines (`Name = type, server, port, key=value...`) → native outbounds, through the
 * share-link mapping helpers. Parameters that would change security or routing if ignored are
 * errors; display and tuning ones are warnings.
 */
import { shadowsocksOutbound } from "../links/shadowsocks.ts";
import { tlsBlock, transportBlock } from "../links/tls_transport.ts";
import { compact, type Json } from "../links/types.ts";
import { vmessSecurity } from "../links/vmess.ts";
import { hysteriaPorts } from "../links/quic_links.ts";
import type { SurgeConversion } from "./context.ts";
import { Items, keyValue } from "./line.ts";
import { type Line, OLD_FORMAT, type Profile } from "./source.ts";
import { wireguardProxy } from "./wireguard.ts";

/** Parameters ignored with a warning: tests, display, tuning. */
const HARMLESS = new Set([
  "test-url",
  "test-timeout",
  "test-udp",
  "tfo",
  "ecn",
  "block-quic",
  "no-error-alert",
  "tos",
  "hybrid",
  "ip-version",
  "tls13",
  "udp-port",
]);

export interface ProxyResult {
  out: Json;
  /** Parameters of the line that nothing read. */
  unused: string[];
}

function port(text: string | undefined): number {
  const n = text !== undefined && /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= 65535)) throw new Error(`invalid port "${text ?? ""}"`);
  return n;
}

function tls(it: Items, on: boolean): Json | undefined {
  if (!on) return undefined;
  if (it.get("server-cert-fingerprint-sha256")) {
    throw new Error('"server-cert-fingerprint-sha256" (certificate pinning) is not supported');
  }
  return tlsBlock({ sni: it.get("sni"), insecure: it.flag("skip-cert-verify") });
}

function ws(it: Items): Json | undefined {
  if (!it.flag("ws")) return undefined;
  const headers: Record<string, string> = {};
  for (const h of (it.get("ws-headers") ?? "").split("|").filter(Boolean)) {
    const colon = h.indexOf(":");
    if (colon <= 0) throw new Error(`"ws-headers": expected "Name:value", got "${h}"`);
    headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
  }
  return transportBlock({ network: "ws", path: it.get("ws-path"), headers });
}

/** One proxy line's value (after `Name =`); throws an Error whose message names what is wrong. */
export function surgeProxy(name: string, value: string, profile: Profile): ProxyResult {
  const it = new Items(value);
  const [kind = "", ...pos] = it.positional;
  const type = kind.toLowerCase();
  const common = () =>
    compact({
      detour: it.get("underlying-proxy"),
      bind_interface: it.get("interface"),
    });
  if (type === "custom") throw new Error(`"custom" proxies with a module URL: ${OLD_FORMAT}`);
  if (type === "direct") return done({ type: "direct", tag: name, ...common() });
  if (type === "reject" || type === "reject-tinygif" || type === "reject-drop") {
    return done({ type: "block", tag: name });
  }
  if (type === "wireguard") return done(wireguardProxy(name, it, profile));
  if (type === "snell") throw new Error("snell proxies are not supported (the protocol is not published)");
  if (it.get("shadow-tls-password")) throw new Error("ShadowTLS is not supported");
  const server = pos[0];
  if (!server) throw new Error("missing the server address");
  const base = { tag: name, server, server_port: port(pos[1]) };
  const user = it.get("username") ?? pos[2];
  const pass = it.get("password") ?? pos[3];
  switch (type) {
    case "http":
    case "https":
      return done(compact({
        type: "http",
        ...base,
        username: user || undefined,
        password: pass || undefined,
        tls: tls(it, type === "https"),
        ...common(),
      }));
    case "socks5":
    case "socks5-tls":
      return done(compact({
        type: "socks",
        ...base,
        version: "5",
        username: user || undefined,
        password: pass || undefined,
        tls: tls(it, type === "socks5-tls"),
        ...common(),
      }));
    case "ss": {
      const method = it.get("encrypt-method") ?? pos[2];
      if (!method) throw new Error('missing "encrypt-method"');
      const obfs = it.get("obfs");
      if (obfs && obfs !== "http" && obfs !== "tls") {
        throw new Error(`unknown obfs "${obfs}": expected http or tls`);
      }
      const host = it.get("obfs-host");
      const uri = it.get("obfs-uri");
      const plugin = obfs
        ? `obfs-local;obfs=${obfs}${host ? `;obfs-host=${host}` : ""}${uri ? `;obfs-uri=${uri}` : ""}`
        : undefined;
      return done(compact({
        ...shadowsocksOutbound(
          name,
          server,
          base.server_port,
          method,
          it.get("password") ?? pos[3] ?? "",
          plugin,
        ),
        network: it.flag("udp-relay") ? undefined : "tcp",
        ...common(),
      }));
    }
    case "vmess": {
      const uuid = it.get("username") ?? pos[2];
      if (!uuid) throw new Error('missing "username" (the VMess user id)');
      const aead = it.flag("vmess-aead");
      return done(
        compact({
          type: "vmess",
          ...base,
          uuid,
          security: vmessSecurity(it.get("encrypt-method")),
          alter_id: 0,
          tls: tls(it, it.flag("tls") === true),
          transport: ws(it),
          ...common(),
        }),
        aead ? [] : ["without vmess-aead=true Surge uses the legacy VMess header; svc always uses AEAD"],
      );
    }
    case "trojan":
      if (!pass) throw new Error('missing "password"');
      return done(compact({
        type: "trojan",
        ...base,
        password: pass,
        tls: tls(it, true),
        transport: ws(it),
        ...common(),
      }));
    case "hysteria2": {
      if (!pass) throw new Error('missing "password"');
      const hop = it.get("port-hopping");
      const bw = it.int("download-bandwidth");
      return done(compact({
        type: "hysteria2",
        ...base,
        ...(hop ? hysteriaPorts(`${base.server_port},${hop.replaceAll(";", ",")}`) : {}),
        hop_interval: it.int("port-hopping-interval") ? `${it.int("port-hopping-interval")}s` : undefined,
        down_mbps: bw || undefined,
        password: pass,
        tls: tls(it, true),
        ...common(),
      }));
    }
    case "tuic":
    case "tuic-v5": {
      if (it.get("token")) {
        throw new Error("TUIC v4 (token) is not supported: use tuic-v5 with uuid and password");
      }
      const uuid = it.get("uuid");
      if (!uuid) throw new Error('missing "uuid"');
      const alpn = it.get("alpn");
      return done(compact({
        type: "tuic",
        ...base,
        uuid,
        password: pass ?? "",
        tls: tlsBlock({
          sni: it.get("sni"),
          insecure: it.flag("skip-cert-verify"),
          alpn: alpn ? alpn.split(/[,|]/).map((s) => s.trim()) : undefined,
        }),
        ...common(),
      }));
    }
    default:
      throw new Error(`unknown proxy type "${kind.slice(0, 40)}"`);
  }

  function done(out: Json, warnings: string[] = []): ProxyResult {
    const unused = it.unused().filter((k) => !HARMLESS.has(k));
    if (unused.length) {
      throw new Error(
        `unknown parameter${unused.length > 1 ? "s" : ""} ${unused.map((k) => `"${k}"`).join(", ")}`,
      );
    }
    return { out, unused: warnings };
  }
}

/** Converts `[Proxy]` lines (and policy-path files' lines); returns the tags made, in order. */
export function convertProxyLines(lines: Line[], cv: SurgeConversion, profile: Profile): string[] {
  const names: string[] = [];
  for (const line of lines) {
    const kv = keyValue(line.text);
    if (!kv || !kv[0]) {
      cv.fail(line.loc, `expected "Name = type, server, port, ...", got "${line.text.slice(0, 60)}"`);
      continue;
    }
    const [name, value] = kv;
    if (cv.tags.has(name) || ["DIRECT", "REJECT"].includes(name)) {
      cv.fail(line.loc, `duplicate proxy name "${name}"`);
      continue;
    }
    let r: ProxyResult;
    try {
      r = surgeProxy(name, value, profile);
    } catch (e) {
      cv.fail(line.loc, `proxy "${name}": ${(e as Error).message}`);
      continue;
    }
    for (const w of r.unused) cv.note(line.loc, `proxy "${name}": ${w}`);
    for (const k of new Items(value).params.keys()) {
      if (HARMLESS.has(k)) cv.note(line.loc, `proxy "${name}": "${k}" is ignored`);
    }
    cv.tags.add(name);
    names.push(name);
    const where = r.out.type === "wireguard" ? "endpoints" : "outbounds";
    cv.push([where], r.out, cv.at(line.loc));
  }
  return names;
}
