/**
 * A sing-box JSON document: its proxy `outbounds` (groups, direct, block and dns are skipped:
 * they are not servers) and `endpoints`, each with its source line. The objects are kept as
 * written; the configuration loader validates them.
 */
import { lineOf, parseJsonc } from "../json/parse.ts";
import type { Entries } from "./clash_body.ts";

const NOT_SERVERS = new Set(["selector", "urltest", "direct", "block", "dns"]);

export function readSingBox(text: string): Entries {
  const out: Entries = { items: [], problems: [] };
  const parsed = parseJsonc(text);
  if (parsed.errors.length) {
    const e = parsed.errors[0];
    out.problems.push({ line: e.line ?? 1, message: `JSON: ${e.message}` });
    return out;
  }
  const root = parsed.value as Record<string, unknown>;
  if (typeof root !== "object" || root === null || Array.isArray(root)) {
    out.problems.push({ line: 1, message: "expected a JSON object with outbounds" });
    return out;
  }
  for (const key of ["outbounds", "endpoints"]) {
    const list = root[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      out.problems.push({ line: lineOf(parsed, [key]) ?? 1, message: `"${key}" is not a list` });
      continue;
    }
    list.forEach((o, i) => {
      const line = lineOf(parsed, [key, String(i)]) ?? 1;
      if (typeof o !== "object" || o === null || Array.isArray(o) || typeof o.type !== "string") {
        out.problems.push({ line, message: `${key}[${i}]: expected an object with a "type"` });
        return;
      }
      if (NOT_SERVERS.has(o.type)) return;
      if (key === "outbounds" && o.type === "wireguard") {
        out.problems.push({
          line,
          message: "the wireguard outbound was removed in sing-box 1.13: use an endpoint",
        });
        return;
      }
      out.items.push({ line, value: { ...o, tag: typeof o.tag === "string" ? o.tag : "" } });
    });
  }
  if (root.outbounds === undefined && root.endpoints === undefined) {
    out.problems.push({ line: 1, message: 'the JSON document has no "outbounds"' });
  }
  return out;
}
