/**
 * HTTP/1.x: a request line `METHOD target HTTP/1.x`, then headers. The domain is the host of an
 * absolute-form target, else the Host header, without its port (as Go's ReadRequest, which sing-box uses).
 */
import { normalizeDomain } from "./domain.ts";
import { indexOfByte, latin1 } from "./reader.ts";
import { found, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

/** Longest request head (request line and headers) read before giving up. */
const MAX_HEAD = 16384;
const MAX_METHOD = 24;
const SP = 0x20, CR = 0x0d, LF = 0x0a, COLON = 0x3a, HT = 0x09;

export function sniffHttp(data: Uint8Array): SniffOutcome {
  const lineEnd = indexOfByte(data, LF, 0, MAX_HEAD);
  const line = checkRequestLine(data.subarray(0, lineEnd < 0 ? Math.min(data.length, MAX_HEAD) : lineEnd));
  if (line === "invalid") return NONE;
  if (lineEnd < 0) return data.length < MAX_HEAD ? NEED_MORE : NONE;
  if (line === "partial") return NONE; // a complete line must be a complete request line
  const targetHost = hostOfTarget(line.target);
  if (targetHost !== undefined) return found("http", hostToDomain(targetHost));
  // Header lines, until the blank line that ends the head.
  let pos = lineEnd + 1;
  for (;;) {
    const end = indexOfByte(data, LF, pos, MAX_HEAD);
    if (end < 0) return data.length < MAX_HEAD ? NEED_MORE : NONE;
    let stop = end;
    if (stop > pos && data[stop - 1] === CR) stop--;
    if (stop === pos) return found("http"); // end of head, no Host
    const header = checkHeader(data.subarray(pos, stop));
    if (header === undefined) return NONE;
    if (header.name === "host") return found("http", hostToDomain(header.value));
    pos = end + 1;
  }
}

type RequestLine = { target: string };

/** Validates a (possibly partial) request line; `partial` when it is a valid prefix only. */
function checkRequestLine(line: Uint8Array): RequestLine | "partial" | "invalid" {
  let end = line.length;
  if (end > 0 && line[end - 1] === CR) end--;
  let i = 0;
  while (i < end && line[i] !== SP) {
    const c = line[i];
    if (!((c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x5f) || i >= MAX_METHOD) return "invalid";
    i++;
  }
  if (i === end) return "partial";
  if (i === 0) return "invalid";
  const targetStart = ++i;
  while (i < end && line[i] !== SP) {
    if (line[i] <= SP || line[i] === 0x7f) return "invalid";
    i++;
  }
  if (i === end) return "partial";
  if (i === targetStart) return "invalid";
  const target = latin1(line.subarray(targetStart, i));
  const version = "HTTP/1.";
  i++;
  let j = 0;
  for (; j < version.length && i + j < end; j++) {
    if (line[i + j] !== version.charCodeAt(j)) return "invalid";
  }
  if (j < version.length) return "partial";
  const rest = end - (i + j);
  if (rest === 0) return "partial";
  const digit = line[i + j];
  if (rest !== 1 || digit < 0x30 || digit > 0x39) return "invalid";
  return { target };
}

/** `Name: value` with a token name; undefined when malformed. Folded lines are skipped. */
function checkHeader(line: Uint8Array): { name: string; value: string } | undefined {
  if (line[0] === SP || line[0] === HT) return { name: "", value: "" };
  const colon = indexOfByte(line, COLON);
  if (colon <= 0) return undefined;
  for (let i = 0; i < colon; i++) {
    const c = line[i];
    if (c <= SP || c >= 0x7f || '()<>@,;\\"/[]?={}'.includes(String.fromCharCode(c))) return undefined;
  }
  return {
    name: latin1(line.subarray(0, colon)).toLowerCase(),
    value: latin1(line.subarray(colon + 1)).trim(),
  };
}

/** The authority of an absolute-form target (`http://host:port/path`), else undefined. */
function hostOfTarget(target: string): string | undefined {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(target);
  if (!m) return undefined;
  const authority = m[1];
  const at = authority.lastIndexOf("@");
  return at >= 0 ? authority.slice(at + 1) : authority;
}

/** A Host value without its port, as a domain; undefined for IP literals and junk. */
export function hostToDomain(host: string): string | undefined {
  let h = host.trim();
  if (h.startsWith("[")) return undefined; // IPv6 literal
  const colon = h.lastIndexOf(":");
  if (colon >= 0) {
    if (h.indexOf(":") !== colon) return undefined; // bare IPv6
    h = h.slice(0, colon);
  }
  return normalizeDomain(h);
}
