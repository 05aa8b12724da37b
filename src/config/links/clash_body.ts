/** The `proxies` list of a Clash/mihomo YAML document, each entry with its source line. */
import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import { clashProxyToOutbound } from "./clash_proxy.ts";
import type { Json, LinkProblem } from "./types.ts";
import { LinkError } from "./types.ts";

export interface Entries {
  items: { line: number; value: Json }[];
  problems: LinkProblem[];
}

/** True when the text looks like a YAML mapping with a `proxies` key. */
export function looksLikeClash(text: string): boolean {
  return /^proxies\s*:/m.test(text);
}

function reason(e: unknown): string {
  if (e instanceof LinkError) return e.message;
  // The yaml package refuses alias expansion beyond maxAliasCount with a ReferenceError.
  if (e instanceof ReferenceError && /alias/i.test(e.message)) return "YAML aliases expand too much";
  return `internal error: ${(e as Error)?.message ?? e}`;
}

export function readClash(text: string): Entries {
  const lc = new LineCounter();
  const out: Entries = { items: [], problems: [] };
  // uniqueKeys reports duplicate keys; maxAliasCount (in toJS) bounds alias expansion ("billion laughs").
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number | undefined) => (offset === undefined ? 1 : lc.linePos(offset).line);
  if (doc.errors.length) {
    const e = doc.errors[0];
    out.problems.push({ line: lineAt(e.pos[0]), message: `YAML: ${e.message.split("\n")[0]}` });
    return out;
  }
  const proxies = isMap(doc.contents) ? doc.contents.get("proxies", true) : undefined;
  if (!isSeq(proxies)) {
    out.problems.push({ line: lineAt(proxies?.range?.[0]), message: '"proxies" is not a list' });
    return out;
  }
  for (const node of proxies.items) {
    const line = lineAt((node as { range?: [number] })?.range?.[0]);
    if (!isMap(node)) {
      out.problems.push({ line, message: "expected a proxy mapping" });
      continue;
    }
    try {
      const value = node.toJS(doc, { maxAliasCount: 100 }) as Record<string, unknown>;
      out.items.push({ line, value: clashProxyToOutbound(value) });
    } catch (e) {
      let where = line;
      if (e instanceof LinkError && e.key) {
        const pair = node.items.find((p) => (p.key as { value?: unknown })?.value === e.key);
        const r = (pair?.key as { range?: [number] })?.range;
        if (r) where = lineAt(r[0]);
      }
      const name = node.get("name");
      const label = typeof name === "string" ? `proxy "${name.slice(0, 60)}": ` : "";
      out.problems.push({
        line: where,
        message: `${label}${reason(e)}`,
      });
    }
  }
  return out;
}
