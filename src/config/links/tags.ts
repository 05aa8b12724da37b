/** Tags for imported outbounds: the link's name, else server:port; made unique with " 2", " 3"… */
import type { Json } from "./types.ts";

function fallbackTag(v: Json): string {
  const peer = Array.isArray(v.peers) ? (v.peers[0] as Json | undefined) : undefined;
  const server = v.server ?? peer?.address;
  const port = v.server_port ?? peer?.port;
  return server !== undefined ? `${v.type}-${server}:${port}` : String(v.type);
}

/** Sets every value's `tag` (mutating it) so that no two are equal; returns the values. */
export function uniqueTags(values: Json[]): Json[] {
  const used = new Set<string>();
  for (const v of values) {
    const base = (typeof v.tag === "string" && v.tag.trim()) ? v.tag.trim() : fallbackTag(v);
    let tag = base;
    for (let n = 2; used.has(tag); n++) tag = `${base} ${n}`;
    used.add(tag);
    v.tag = tag;
  }
  return values;
}
