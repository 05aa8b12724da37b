/** `anytls://password@host:port/?sni=…&insecure=1&fp=…#name` (the anytls-go and mihomo form). */
import { commaList, parsePort, pctDecode, requireHost, splitLink } from "./text.ts";
import { tlsBlock } from "./tls_transport.ts";
import { compact, type Json, LinkError } from "./types.ts";

export function parseAnytls(link: string): Json {
  const parts = splitLink(link);
  const p = parts.params;
  const password = pctDecode(parts.user ?? "");
  if (!password) throw new LinkError("missing password");
  return compact({
    type: "anytls",
    tag: parts.name,
    server: requireHost(parts.host),
    server_port: parsePort(parts.portText, 443),
    password,
    tls: tlsBlock({
      sni: p.get("sni", "peer"),
      insecure: p.flag("insecure", "allowInsecure"),
      alpn: commaList(p.get("alpn")),
      fingerprint: p.get("fp"),
    }),
  });
}
