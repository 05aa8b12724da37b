/**
 * `vmess://` links: the v2rayN form (base64 of a JSON object: v, ps, add, port, id, aid, scy,
 * net, type, host, path, tls, sni, alpn, fp, allowInsecure) and the Shadowrocket form
 * (`vmess://base64(security:uuid@host:port)?remarks=…&obfs=websocket&tls=1…`).
 */
import { base64Text, commaList, Params, parsePort, pctDecode, requireHost, splitHostPort } from "./text.ts";
import { tlsBlock, transportBlock } from "./tls_transport.ts";
import { compact, type Json, LinkError } from "./types.ts";

const SECURITY = new Set(["auto", "none", "zero", "aes-128-gcm", "chacha20-poly1305", "aes-128-ctr"]);

export function vmessSecurity(raw: string | undefined): string {
  const s = (raw ?? "").trim().toLowerCase() || "auto";
  if (!SECURITY.has(s)) throw new LinkError(`unknown vmess security "${s.slice(0, 40)}"`);
  return s;
}

/** A JSON scalar as text (v2rayN writes numbers and booleans as either). */
function str(v: unknown): string | undefined {
  if (typeof v === "string") return v.trim() || undefined;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

function alterId(v: string | undefined): number {
  if (v === undefined) return 0;
  if (!/^\d{1,5}$/.test(v)) throw new LinkError(`invalid alter id "${v.slice(0, 20)}"`);
  return Number(v);
}

function fromV2rayN(o: Record<string, unknown>): Json {
  const net = str(o.net) ?? "tcp";
  const host = str(o.host);
  const tls = (str(o.tls) ?? "").toLowerCase();
  if (tls !== "" && tls !== "tls" && tls !== "none") {
    throw new LinkError(`vmess security layer "${tls}" is not supported`);
  }
  const transport = transportBlock({
    network: net,
    headerType: net === "tcp" || net === "raw" ? str(o.type) : undefined,
    host,
    path: str(o.path),
    serviceName: str(o.path),
  });
  return compact({
    type: "vmess",
    tag: str(o.ps) ?? "",
    server: requireHost(str(o.add) ?? ""),
    server_port: parsePort(str(o.port)),
    uuid: requireUuid(str(o.id)),
    security: vmessSecurity(str(o.scy)),
    alter_id: alterId(str(o.aid)),
    tls: tls === "tls"
      ? tlsBlock({
        // v2rayN falls back to the Host header for SNI.
        sni: str(o.sni) ?? commaList(host)?.[0],
        insecure: /^(1|true)$/i.test(str(o.allowInsecure) ?? ""),
        alpn: commaList(str(o.alpn)),
        fingerprint: str(o.fp),
      })
      : undefined,
    transport,
  });
}

function requireUuid(id: string | undefined): string {
  if (!id) throw new LinkError("missing user id");
  return id;
}

const ROCKET_OBFS: Record<string, string> = {
  websocket: "ws",
  none: "tcp",
  h2: "h2",
  grpc: "grpc",
  http: "http-obfs",
};

function fromShadowrocket(decoded: string, query: string, name: string): Json {
  const at = decoded.lastIndexOf("@");
  const colon = decoded.indexOf(":");
  if (at < 0 || colon < 0 || colon > at) {
    throw new LinkError("the vmess:// payload is neither v2rayN JSON nor security:uuid@host:port");
  }
  const { host, portText } = splitHostPort(decoded.slice(at + 1).trim());
  const p = new Params(query);
  const obfs = (p.get("obfs") ?? "none").toLowerCase();
  const net = ROCKET_OBFS[obfs];
  if (!net || net === "http-obfs") throw new LinkError(`vmess obfs "${obfs.slice(0, 40)}" is not supported`);
  return compact({
    type: "vmess",
    tag: p.get("remarks", "remark") ?? name,
    server: requireHost(host),
    server_port: parsePort(portText),
    uuid: requireUuid(decoded.slice(colon + 1, at)),
    security: vmessSecurity(decoded.slice(0, colon)),
    alter_id: alterId(p.get("alterId", "aid")),
    tls: p.flag("tls")
      ? tlsBlock({ sni: p.get("peer", "sni"), insecure: p.flag("allowInsecure") })
      : undefined,
    transport: transportBlock({ network: net, host: p.get("obfsParam"), path: p.get("path") }),
  });
}

export function parseVmess(link: string): Json {
  const body = link.slice("vmess://".length);
  const hash = body.indexOf("#");
  const name = hash >= 0 ? pctDecode(body.slice(hash + 1)).trim() : "";
  const noFrag = hash >= 0 ? body.slice(0, hash) : body;
  const q = noFrag.indexOf("?");
  const payload = q >= 0 ? noFrag.slice(0, q) : noFrag;
  const decoded = base64Text(pctDecode(payload));
  if (decoded === undefined) throw new LinkError("bad base64 in the vmess:// link");
  const trimmed = decoded.trim();
  if (!trimmed.startsWith("{")) return fromShadowrocket(trimmed, q >= 0 ? noFrag.slice(q + 1) : "", name);
  let o: unknown;
  try {
    o = JSON.parse(trimmed);
  } catch {
    throw new LinkError("the decoded vmess:// link is not valid JSON");
  }
  if (typeof o !== "object" || o === null || Array.isArray(o)) {
    throw new LinkError("the decoded vmess:// link is not a JSON object");
  }
  const out = fromV2rayN(o as Record<string, unknown>);
  if (!out.tag && name) out.tag = name;
  return out;
}
