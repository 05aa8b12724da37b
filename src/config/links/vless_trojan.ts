/**
 * `vless://uuid@host:port?…#name` and `trojan://password@host:port?…#name`: both use the Xray
 * share-link parameters (type, security, sni, fp, alpn, pbk, sid, path, host, serviceName,
 * headerType, allowInsecure). Shadowrocket writes `peer` for sni and `obfs`/`obfsParam` for ws.
 */
import { commaList, type LinkParts, parsePort, pctDecode, requireHost, splitLink } from "./text.ts";
import { tlsBlock, transportBlock } from "./tls_transport.ts";
import { compact, type Json, LinkError } from "./types.ts";

function layers(parts: LinkParts, defaultSecurity: string): { tls?: Json; transport?: Json } {
  const p = parts.params;
  const security = (p.get("security") ?? defaultSecurity).toLowerCase();
  const rocketWs = p.get("obfs")?.toLowerCase() === "websocket";
  const transport = transportBlock({
    network: p.get("type", "network") ?? (rocketWs ? "ws" : "tcp"),
    headerType: p.get("headerType"),
    host: p.get("host") ?? (rocketWs ? p.get("obfsParam") : undefined),
    path: p.get("path"),
    serviceName: p.get("serviceName"),
  });
  const tlsParams = {
    sni: p.get("sni", "peer", "serverName"),
    insecure: p.flag("allowInsecure", "insecure", "allow_insecure") || undefined,
    alpn: commaList(p.get("alpn")),
    fingerprint: p.get("fp"),
  };
  switch (security) {
    case "none":
    case "":
      return { transport };
    case "tls":
      return { transport, tls: tlsBlock(tlsParams) };
    case "reality":
      return {
        transport,
        tls: tlsBlock({ ...tlsParams, reality: { publicKey: p.get("pbk"), shortId: p.get("sid") } }),
      };
    default:
      throw new LinkError(`security "${security.slice(0, 40)}" is not supported`);
  }
}

export function parseVless(link: string): Json {
  const parts = splitLink(link);
  const uuid = pctDecode(parts.user ?? "").trim();
  if (!uuid) throw new LinkError("missing user id");
  const enc = parts.params.get("encryption");
  if (enc && enc.toLowerCase() !== "none") {
    throw new LinkError(`VLESS encryption "${enc.slice(0, 40)}" is not supported`);
  }
  const flow = parts.params.get("flow");
  if (flow && flow !== "xtls-rprx-vision") {
    throw new LinkError(`VLESS flow "${flow.slice(0, 40)}" is not supported`);
  }
  const { tls, transport } = layers(parts, "none");
  return compact({
    type: "vless",
    tag: parts.name,
    server: requireHost(parts.host),
    server_port: parsePort(parts.portText),
    uuid,
    flow,
    tls,
    transport,
  });
}

export function parseTrojan(link: string): Json {
  const parts = splitLink(link);
  const password = pctDecode(parts.user ?? "");
  if (!password) throw new LinkError("missing password");
  const { tls, transport } = layers(parts, "tls");
  return compact({
    type: "trojan",
    tag: parts.name,
    server: requireHost(parts.host),
    server_port: parsePort(parts.portText, 443),
    password,
    tls,
    transport,
  });
}
