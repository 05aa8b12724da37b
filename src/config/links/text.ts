/**
 * Small text helpers for share links: tolerant base64, percent-decoding that never throws, and a
 * splitter for `scheme://userinfo@host:port/path?query#name`. Hand-written rather than WHATWG
 * `URL`: links carry raw base64 (with `/` and `+`) in the userinfo and unbracketed port lists,
 * which `URL` either rejects or rewrites.
 */
import { LinkError } from "./types.ts";

/** Percent-decodes; a malformed escape is kept as written rather than failing the link. */
export function pctDecode(s: string): string {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const B64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes standard or URL-safe base64, with or without padding, ignoring whitespace, into UTF-8
 * text. Returns undefined when the text is not base64 or not valid UTF-8.
 */
export function base64Text(s: string): string | undefined {
  const t = s.replace(/\s+/g, "");
  if (t.length === 0 || !B64.test(t) || t.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(t.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, ""));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Query parameters; keys as written (they are case-sensitive in the link formats). */
export class Params {
  readonly #map = new Map<string, string>();
  constructor(query: string) {
    for (const part of query.split("&")) {
      if (!part) continue;
      const eq = part.indexOf("=");
      const k = pctDecode(eq < 0 ? part : part.slice(0, eq));
      if (!this.#map.has(k)) this.#map.set(k, eq < 0 ? "" : pctDecode(part.slice(eq + 1)));
    }
  }
  /** The first of `names` present and non-empty. */
  get(...names: string[]): string | undefined {
    for (const n of names) {
      const v = this.#map.get(n);
      if (v !== undefined && v !== "") return v;
    }
    return undefined;
  }
  /** A boolean flag: 1, true, yes (any case) are true; absent is undefined. */
  flag(...names: string[]): boolean | undefined {
    const v = this.get(...names);
    return v === undefined ? undefined : /^(1|true|yes|on)$/i.test(v);
  }
  has(name: string): boolean {
    return this.#map.has(name);
  }
}

export interface LinkParts {
  scheme: string;
  /** Raw userinfo (not percent-decoded), or undefined when there is no `@`. */
  user?: string;
  host: string;
  /** Raw port text ("" when absent). */
  portText: string;
  path: string;
  params: Params;
  /** The `#fragment`, percent-decoded. */
  name: string;
}

/** Splits a link; fails only when it has no `scheme://`. */
export function splitLink(link: string): LinkParts {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s.exec(link);
  if (!m) throw new LinkError("not a link: expected scheme://");
  let rest = m[2];
  let name = "";
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    name = pctDecode(rest.slice(hash + 1)).trim();
    rest = rest.slice(0, hash);
  }
  let query = "";
  const q = rest.indexOf("?");
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let user: string | undefined;
  const at = rest.lastIndexOf("@");
  if (at >= 0) {
    user = rest.slice(0, at);
    rest = rest.slice(at + 1);
  }
  let path = "";
  const slash = rest.indexOf("/");
  if (slash >= 0) {
    path = rest.slice(slash);
    rest = rest.slice(0, slash);
  }
  const { host, portText } = splitHostPort(rest);
  return { scheme: m[1].toLowerCase(), user, host, portText, path, params: new Params(query), name };
}

/** `host:port`, `[v6]:port`, or a bare host; a bare IPv6 address without brackets is refused. */
export function splitHostPort(s: string): { host: string; portText: string } {
  if (s.startsWith("[")) {
    const close = s.indexOf("]");
    if (close < 0) throw new LinkError(`unterminated IPv6 address "${s}"`);
    const after = s.slice(close + 1);
    if (after !== "" && !after.startsWith(":")) throw new LinkError(`invalid server address "${s}"`);
    return { host: s.slice(1, close), portText: after.slice(1) };
  }
  const colon = s.indexOf(":");
  if (colon < 0) return { host: pctDecode(s), portText: "" };
  if (s.indexOf(":", colon + 1) >= 0 && !s.slice(colon + 1).includes(",")) {
    throw new LinkError(`invalid server address "${s}": write an IPv6 address in brackets`);
  }
  return { host: pctDecode(s.slice(0, colon)), portText: s.slice(colon + 1) };
}

/** A port number from link text; `fallback` when absent. */
export function parsePort(text: string | number | undefined, fallback?: number): number {
  if (text === undefined || text === "") {
    if (fallback !== undefined) return fallback;
    throw new LinkError("missing port");
  }
  const s = String(text).trim();
  const n = /^\d{1,5}$/.test(s) ? Number(s) : NaN;
  if (!(n >= 1 && n <= 65535)) throw new LinkError(`invalid port "${s.slice(0, 40)}"`);
  return n;
}

/** The server address; fails when empty. */
export function requireHost(host: string): string {
  const h = host.trim();
  if (!h) throw new LinkError("missing server address");
  if (/[\s/\\@]/.test(h)) throw new LinkError(`invalid server address "${h.slice(0, 80)}"`);
  return h;
}

/** A comma-separated list, trimmed, empties dropped; undefined when empty. */
export function commaList(s: string | undefined): string[] | undefined {
  const list = (s ?? "").split(",").map((x) => x.trim()).filter((x) => x);
  return list.length ? list : undefined;
}
