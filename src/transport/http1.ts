/**
 * HTTP/1.1 message heads for the upgrade handshakes (ws, httpupgrade, the plain-HTTP `http`
 * transport): read one head from a BufferedConn, bounded in size and time, and build heads.
 * The bytes after the head stay buffered in the BufferedConn: they belong to the tunnel.
 */
import type { Conn } from "../adapter/mod.ts";
import { ProtocolError } from "../common/errors.ts";
import { BufferedConn } from "../net/buffered_conn.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../net/deadline.ts";

/** Go's http.DefaultMaxHeaderBytes is 1 MiB; a tunnel handshake never needs more than this. */
export const MAX_HEAD_BYTES = 16 * 1024;

export interface HttpHead {
  /** The three parts of the start line: method, target, version / version, status, reason. */
  start: [string, string, string];
  /** Header names in lower case; repeated headers are joined with ", ". */
  headers: Map<string, string>;
}

const CRLFCRLF = [13, 10, 13, 10];
const latin1 = new TextDecoder("latin1");
const encoder = new TextEncoder();

function findHeadEnd(b: Uint8Array, from: number): number {
  outer: for (let i = Math.max(0, from - 3); i + 4 <= b.length; i++) {
    for (let j = 0; j < 4; j++) if (b[i + j] !== CRLFCRLF[j]) continue outer;
    return i + 4;
  }
  return -1;
}

/** Parses a head ("line CRLF (name: value CRLF)* CRLF"); throws ProtocolError when malformed. */
export function parseHead(text: string): HttpHead {
  const lines = text.split("\r\n");
  const first = lines[0];
  const a = first.indexOf(" "), b = first.indexOf(" ", a + 1);
  if (a <= 0) throw new ProtocolError(`Malformed HTTP start line: "${first.slice(0, 80)}"`);
  const start: [string, string, string] = b < 0
    ? [first.slice(0, a), first.slice(a + 1), ""]
    : [first.slice(0, a), first.slice(a + 1, b), first.slice(b + 1)];
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const c = line.indexOf(":");
    if (c <= 0) throw new ProtocolError(`Malformed HTTP header line: "${line.slice(0, 80)}"`);
    const name = line.slice(0, c).trim().toLowerCase();
    const value = line.slice(c + 1).trim();
    const old = headers.get(name);
    headers.set(name, old === undefined ? value : `${old}, ${value}`);
  }
  return { start, headers };
}

/** Reads one head from `conn`; the connection is closed if it takes longer than the handshake budget. */
export async function readHead(conn: BufferedConn, timeoutMs = HANDSHAKE_TIMEOUT_MS): Promise<HttpHead> {
  const timer = closeAfter(conn, timeoutMs);
  try {
    let scanned = 0;
    while (true) {
      const b = conn.buffered();
      const end = findHeadEnd(b, scanned);
      if (end >= 0) {
        const head = parseHead(latin1.decode(b.subarray(0, end - 4)));
        conn.consume(end);
        return head;
      }
      scanned = b.length;
      if (b.length >= MAX_HEAD_BYTES) {
        throw new ProtocolError(`HTTP head larger than ${MAX_HEAD_BYTES} bytes`);
      }
      if (!(await conn.fill(MAX_HEAD_BYTES))) {
        throw new ProtocolError("Connection closed before the end of the HTTP head");
      }
    }
  } finally {
    timer.clear();
  }
}

/** Wraps a Conn for head reading (the buffer is kept small: the tunnel reads past it). */
export function buffered(conn: Conn): BufferedConn {
  return conn instanceof BufferedConn ? conn : new BufferedConn(conn, undefined, 4096);
}

/** Encodes a head; `headers` entries with an empty value are skipped. */
export function buildHead(start: string, headers: Iterable<[string, string]>): Uint8Array {
  let s = start + "\r\n";
  for (const [k, v] of headers) {
    if (/[\r\n]/.test(k) || /[\r\n]/.test(v)) throw new ProtocolError(`Header "${k}" contains a line break`);
    s += `${k}: ${v}\r\n`;
  }
  return encoder.encode(s + "\r\n");
}

/** Flattens the model's `headers` (values may be lists) into name/value pairs. */
export function headerPairs(h: Record<string, string | string[]> | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(h ?? {})) {
    for (const one of Array.isArray(v) ? v : [v]) out.push([k, one]);
  }
  return out;
}

/** `host:port` as a Host header or :authority (IPv6 in brackets). */
export function authority(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Ensures a path starts with "/" as sing-box does. */
export function normalizePath(p: string | undefined): string {
  const path = p ?? "";
  return path.startsWith("/") ? path : "/" + path;
}
