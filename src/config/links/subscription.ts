/**
 * A subscription body into outbounds: a list of share links (plain or base64 of it), a Clash YAML
 * document with `proxies`, or a sing-box JSON document with `outbounds`. Never throws: every entry
 * that cannot be imported becomes a problem with its line.
 */
import { looksLikeClash, readClash } from "./clash_body.ts";
import { parseShareLink } from "./link.ts";
import { readSingBox } from "./singbox_body.ts";
import { uniqueTags } from "./tags.ts";
import { base64Text } from "./text.ts";
import { ENDPOINT_TYPES, type Json, LIMITS, LinkError, type LinkProblem } from "./types.ts";
import type { Entries } from "./clash_body.ts";

export type BodyFormat = "links" | "base64" | "clash" | "sing-box";

export interface ImportResult {
  format: BodyFormat;
  outbounds: Json[];
  /** WireGuard and other endpoint types (sing-box 1.14 keeps them apart from outbounds). */
  endpoints: Json[];
  /** Entries not imported, in line order. */
  problems: LinkProblem[];
}

function readLinks(text: string): Entries {
  const out: Entries = { items: [], problems: [] };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith("#") || line.startsWith("//")) continue;
    try {
      out.items.push({ line: i + 1, value: parseShareLink(line) });
    } catch (e) {
      const message = e instanceof LinkError ? e.message : `internal error: ${(e as Error)?.message ?? e}`;
      out.problems.push({ line: i + 1, message });
    }
  }
  return out;
}

function detect(text: string): { format: BodyFormat; entries: Entries } {
  const t = text.trimStart();
  if (t.startsWith("{")) return { format: "sing-box", entries: readSingBox(text) };
  if (/^[A-Za-z][A-Za-z0-9+.-]{0,20}:\/\//.test(t)) return { format: "links", entries: readLinks(text) };
  if (looksLikeClash(text)) return { format: "clash", entries: readClash(text) };
  if (/^[A-Za-z0-9+/=_\s-]+$/.test(t)) {
    const decoded = base64Text(t);
    if (decoded === undefined) {
      return {
        format: "base64",
        entries: {
          items: [],
          problems: [{ line: 1, message: "bad base64: the body is neither a link list nor base64 of one" }],
        },
      };
    }
    // Line numbers are those of the decoded list.
    const inner = decoded.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    const entries = looksLikeClash(inner) && !/^\s*[A-Za-z0-9+.-]+:\/\//.test(inner)
      ? readClash(inner)
      : readLinks(inner);
    return { format: "base64", entries };
  }
  return { format: "links", entries: readLinks(text) };
}

/** Reads a subscription body or a list of share links. */
export function importShareLinks(body: string): ImportResult {
  if (body.length > LIMITS.maxBodyChars) {
    return {
      format: "links",
      outbounds: [],
      endpoints: [],
      problems: [{ line: 1, message: `the body is larger than ${LIMITS.maxBodyChars} characters` }],
    };
  }
  const text = body.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  let format: BodyFormat = "links";
  let entries: Entries;
  try {
    ({ format, entries } = detect(text));
  } catch (e) {
    // A bug must not take the caller down: report it on line 1.
    entries = {
      items: [],
      problems: [{ line: 1, message: `internal error: ${(e as Error)?.message ?? e}` }],
    };
  }
  const problems = [...entries.problems];
  let items = entries.items;
  if (items.length > LIMITS.maxEntries) {
    problems.push({
      line: items[LIMITS.maxEntries].line,
      message: `more than ${LIMITS.maxEntries} entries: the rest are skipped`,
    });
    items = items.slice(0, LIMITS.maxEntries);
  }
  problems.sort((a, b) => a.line - b.line);
  const values = uniqueTags(items.map((i) => i.value));
  return {
    format,
    outbounds: values.filter((v) => !ENDPOINT_TYPES.has(String(v.type))),
    endpoints: values.filter((v) => ENDPOINT_TYPES.has(String(v.type))),
    problems,
  };
}
