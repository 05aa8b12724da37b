/**
 * `socks://`, `socks5://`, `socks4://`, `socks4a://` and `http://`, `https://` proxy links. v2rayN
 * writes the SOCKS user info as base64 of `user:pass`; others write it percent-encoded.
 */
import { base64Text, parsePort, pctDecode, requireHost, splitLink } from "./text.ts";
import { tlsBlock } from "./tls_transport.ts";
import { compact, type Json } from "./types.ts";

/** Decoded "credentials" with control characters were not base64 after all. */
const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20);

function credentials(raw: string | undefined, tryBase64: boolean): { username?: string; password?: string } {
  if (raw === undefined || raw === "") return {};
  let text = pctDecode(raw);
  if (tryBase64 && !text.includes(":")) {
    const decoded = base64Text(text);
    if (decoded !== undefined && decoded.includes(":") && !hasControl(decoded)) text = decoded;
  }
  const colon = text.indexOf(":");
  if (colon < 0) return { username: text };
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

export function parseSocks(link: string): Json {
  const parts = splitLink(link);
  const version = parts.scheme === "socks4" ? "4" : parts.scheme === "socks4a" ? "4a" : "5";
  const { username, password } = credentials(parts.user, true);
  return compact({
    type: "socks",
    tag: parts.name,
    server: requireHost(parts.host),
    server_port: parsePort(parts.portText, 1080),
    version,
    username: username || undefined,
    password: version === "5" ? password || undefined : undefined,
  });
}

export function parseHttp(link: string): Json {
  const parts = splitLink(link);
  const secure = parts.scheme === "https";
  const { username, password } = credentials(parts.user, false);
  const p = parts.params;
  return compact({
    type: "http",
    tag: parts.name,
    server: requireHost(parts.host),
    server_port: parsePort(parts.portText, secure ? 443 : 80),
    username: username || undefined,
    password: password || undefined,
    tls: secure
      ? tlsBlock({
        sni: p.get("sni", "peer"),
        insecure: p.flag("allowInsecure", "insecure", "skip-cert-verify"),
      })
      : undefined,
  });
}
