/**
 * The TLS and V2Ray-transport blocks of sing-box, built from the parameters every link and
 * Clash flavour spells differently. Transports sing-box lacks (kcp, quic-of-v2ray, xhttp, TCP
 * with HTTP header obfuscation) are refused rather than silently changed.
 */
import { compact, type Json, LinkError } from "./types.ts";

export interface TlsParams {
  sni?: string;
  insecure?: boolean;
  alpn?: string[];
  /** uTLS client fingerprint (chrome, firefox, …). */
  fingerprint?: string;
  disableSni?: boolean;
  reality?: { publicKey?: string; shortId?: string };
}

/** An enabled TLS block. */
export function tlsBlock(p: TlsParams): Json {
  const fp = p.fingerprint?.trim().toLowerCase();
  const utls = fp && fp !== "none" ? { enabled: true, fingerprint: fp } : undefined;
  let reality: Json | undefined;
  if (p.reality) {
    if (!p.reality.publicKey) throw new LinkError("REALITY needs a public key");
    reality = compact({ enabled: true, public_key: p.reality.publicKey, short_id: p.reality.shortId });
  }
  return compact({
    enabled: true,
    server_name: p.sni || undefined,
    disable_sni: p.disableSni || undefined,
    insecure: p.insecure || undefined,
    alpn: p.alpn?.length ? p.alpn : undefined,
    // sing-box requires uTLS with REALITY; chrome is what the v2rayN and Xray clients default to.
    utls: utls ?? (reality ? { enabled: true, fingerprint: "chrome" } : undefined),
    reality,
  });
}

export interface TransportParams {
  /** tcp, raw, ws, grpc, h2, http, httpupgrade, … as written. */
  network?: string;
  /** TCP header type (v2ray `type`/`headerType`): only none is possible. */
  headerType?: string;
  /** Host header(s), comma-separated in links. */
  host?: string;
  path?: string;
  serviceName?: string;
  /** Explicit early data settings (Clash `ws-opts`). */
  maxEarlyData?: number;
  earlyDataHeader?: string;
  headers?: Record<string, string>;
}

/** The transport block, or undefined for plain TCP. */
export function transportBlock(p: TransportParams): Json | undefined {
  const net = (p.network ?? "tcp").trim().toLowerCase() || "tcp";
  const hosts = (p.host ?? "").split(",").map((h) => h.trim()).filter((h) => h);
  switch (net) {
    case "tcp":
    case "raw":
    case "none": {
      const h = (p.headerType ?? "none").toLowerCase();
      if (h !== "none" && h !== "") throw new LinkError(`TCP header type "${h}" is not supported`);
      return undefined;
    }
    case "ws":
    case "websocket": {
      let path = p.path ?? "";
      let maxEarly = p.maxEarlyData;
      let header = p.earlyDataHeader;
      // Xray and v2rayN put early data in the path: /ws?ed=2048 (sent in Sec-WebSocket-Protocol).
      const m = /^([^?]*)\?(.*)$/.exec(path);
      if (m) {
        const rest: string[] = [];
        for (const kv of m[2].split("&")) {
          const ed = /^ed=(\d{1,7})$/.exec(kv);
          if (ed) maxEarly = Number(ed[1]);
          else if (kv) rest.push(kv);
        }
        if (maxEarly !== undefined && header === undefined) header = "Sec-WebSocket-Protocol";
        path = rest.length ? `${m[1]}?${rest.join("&")}` : m[1];
      }
      const headers: Record<string, string> = { ...p.headers };
      if (hosts.length && !Object.keys(headers).some((k) => k.toLowerCase() === "host")) {
        headers.Host = hosts[0];
      }
      return compact({
        type: "ws",
        path: path || undefined,
        headers: Object.keys(headers).length ? headers : undefined,
        max_early_data: maxEarly,
        early_data_header_name: maxEarly !== undefined ? header : undefined,
      });
    }
    case "h2":
    case "http":
      return compact({ type: "http", host: hosts.length ? hosts : undefined, path: p.path || undefined });
    case "grpc":
    case "gun":
      return compact({ type: "grpc", service_name: p.serviceName || p.path || undefined });
    case "httpupgrade":
      return compact({ type: "httpupgrade", host: hosts[0], path: p.path || undefined });
    default:
      throw new LinkError(`transport "${net.slice(0, 40)}" is not supported`);
  }
}
