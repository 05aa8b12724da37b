/**
 * HTTP/1.x message heads and body framing (RFC 9112), over Uint8Array with no I/O: enough for a
 * forwarding proxy to find where each message ends so connections can be kept alive.
 */
import { ProtocolError } from "../../common/errors.ts";

export const MAX_HEAD = 64 * 1024;

export interface MessageHead {
  /** Request: method, target, version. Response: version, status, reason. */
  startLine: [string, string, string];
  headers: [string, string][];
  /** Bytes the head took, including the blank line. */
  length: number;
}

const decoder = new TextDecoder("latin1");
const encoder = new TextEncoder();

/** Finds the end of a head (CRLFCRLF, or bare LFLF as lenient servers accept). */
function headEnd(b: Uint8Array): number {
  for (let i = 0; i + 1 < b.length; i++) {
    if (b[i] === 10) {
      if (b[i + 1] === 10) return i + 2;
      if (b[i + 1] === 13 && b[i + 2] === 10) return i + 3;
    }
  }
  return -1;
}

export function decodeHead(b: Uint8Array, kind: "request" | "response"): MessageHead | undefined {
  const end = headEnd(b);
  if (end < 0) {
    if (b.length >= MAX_HEAD) throw new ProtocolError(`HTTP ${kind} head larger than ${MAX_HEAD} bytes`);
    return undefined;
  }
  const lines = decoder.decode(b.subarray(0, end)).split(/\r?\n/);
  const first = lines[0];
  const m = kind === "request"
    ? /^([A-Za-z]+) (\S+) (HTTP\/\d\.\d)$/.exec(first)
    : /^(HTTP\/\d\.\d) (\d{3})(?: (.*))?$/.exec(first);
  if (!m) throw new ProtocolError(`Malformed HTTP ${kind} line "${first.slice(0, 80)}"`);
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const c = line.indexOf(":");
    if (c <= 0) throw new ProtocolError(`Malformed HTTP header line "${line.slice(0, 80)}"`);
    headers.push([line.slice(0, c).trim(), line.slice(c + 1).trim()]);
  }
  return { startLine: [m[1], m[2], m[3] ?? ""], headers, length: end };
}

export function encodeHead(startLine: string, headers: [string, string][]): Uint8Array {
  let s = startLine + "\r\n";
  for (const [k, v] of headers) s += `${k}: ${v}\r\n`;
  return encoder.encode(s + "\r\n");
}

export function header(h: [string, string][], name: string): string | undefined {
  const n = name.toLowerCase();
  return h.find(([k]) => k.toLowerCase() === n)?.[1];
}

export type BodyFraming = { kind: "none" } | { kind: "length"; length: number } | { kind: "chunked" } | {
  kind: "until_close";
};

export function requestBody(h: MessageHead): BodyFraming {
  return framing(h.headers, false);
}

export function responseBody(h: MessageHead, requestMethod: string): BodyFraming {
  const status = Number(h.startLine[1]);
  if (requestMethod === "HEAD" || status < 200 || status === 204 || status === 304) return { kind: "none" };
  return framing(h.headers, true);
}

function framing(headers: [string, string][], isResponse: boolean): BodyFraming {
  const te = header(headers, "transfer-encoding");
  if (te && /(^|,)\s*chunked\s*$/i.test(te)) return { kind: "chunked" };
  if (te) return isResponse ? { kind: "until_close" } : { kind: "chunked" };
  const cl = header(headers, "content-length");
  if (cl !== undefined) {
    if (!/^\d+$/.test(cl)) throw new ProtocolError(`Bad Content-Length "${cl}"`);
    const length = Number(cl);
    return length === 0 ? { kind: "none" } : { kind: "length", length };
  }
  return isResponse ? { kind: "until_close" } : { kind: "none" };
}

/** Whether the connection stays open after this message (HTTP/1.1 default on, 1.0 default off). */
export function keepAlive(h: MessageHead, version: string): boolean {
  const conn = (header(h.headers, "connection") ?? header(h.headers, "proxy-connection") ?? "").toLowerCase();
  if (conn.includes("close")) return false;
  if (version === "HTTP/1.0") return conn.includes("keep-alive");
  return true;
}

/** Parses one chunk-size line at the start of `b`: size and line length, or undefined if incomplete. */
export function decodeChunkSize(b: Uint8Array): { size: number; length: number } | undefined {
  const nl = b.indexOf(10);
  if (nl < 0) {
    if (b.length > 4096) throw new ProtocolError("HTTP chunk size line too long");
    return undefined;
  }
  const line = decoder.decode(b.subarray(0, nl)).replace(/\r$/, "");
  const m = /^([0-9a-fA-F]{1,12})(;.*)?\s*$/.exec(line);
  if (!m) throw new ProtocolError(`Bad HTTP chunk size "${line.slice(0, 40)}"`);
  return { size: parseInt(m[1], 16), length: nl + 1 };
}

/** Splits an absolute-form target "http://host[:port]/path" into host, port and origin-form path. */
export function parseAbsoluteTarget(
  target: string,
): { host: string; port: number; path: string } | undefined {
  const m = /^http:\/\/(\[[^\]]+\]|[^/:?#]+)(?::(\d{1,5}))?([/?][^#]*)?/i.exec(target);
  if (!m) return undefined;
  const port = m[2] ? Number(m[2]) : 80;
  if (port < 1 || port > 65535) return undefined;
  const host = m[1].startsWith("[") ? m[1].slice(1, -1) : m[1];
  const path = m[3] ? (m[3].startsWith("?") ? "/" + m[3] : m[3]) : "/";
  return { host, port, path };
}

/** Host and port of a CONNECT target "host:port" or "[v6]:port". */
export function parseAuthority(target: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(target) ?? /^([^:/\s]+):(\d{1,5})$/.exec(target);
  if (!m) return undefined;
  const port = Number(m[2]);
  return port >= 1 && port <= 65535 ? { host: m[1], port } : undefined;
}

const HOP_BY_HOP = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "upgrade",
]);

/** Drops hop-by-hop headers, those named by Connection and every Proxy-* header before forwarding; keeps Upgrade pairs. */
export function forwardHeaders(h: [string, string][]): [string, string][] {
  const named = new Set(
    (header(h, "connection") ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean),
  );
  const upgrade = named.has("upgrade") ? header(h, "upgrade") : undefined;
  // Proxy-* headers are addressed to this proxy (credentials, Proxy-Connection…), never to the origin.
  const out = h.filter(([k]) => {
    const key = k.toLowerCase();
    return !HOP_BY_HOP.has(key) && !named.has(key) && !key.startsWith("proxy-");
  });
  if (upgrade) out.push(["Connection", "Upgrade"], ["Upgrade", upgrade]);
  return out;
}

export function simpleResponse(status: number, reason: string, extra: [string, string][] = []): Uint8Array {
  return encodeHead(`HTTP/1.1 ${status} ${reason}`, [...extra, ["Content-Length", "0"], [
    "Connection",
    "close",
  ]]);
}
