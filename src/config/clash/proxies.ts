/** Clash `proxies` → native outbounds (and WireGuard endpoints), through the share-link importer's mapping. */
import { clashProxyToOutbound } from "../links/clash_proxy.ts";
import { LinkError } from "../links/types.ts";
import { asList, asString, Conversion, isRecord } from "./conversion.ts";

type Json = Record<string, unknown>;

/** Converts every proxy; returns the names that became outbounds (in order). */
export function convertProxies(c: Json, cv: Conversion): string[] {
  const names: string[] = [];
  asList(c.proxies).forEach((p, i) => {
    const path = ["proxies", i];
    if (!isRecord(p)) return cv.error(path, "expected a proxy mapping");
    const name = asString(p.name);
    if (name && cv.tags.has(name)) return cv.error([...path, "name"], `duplicate proxy name "${name}"`);
    let out: Json;
    try {
      out = clashProxyToOutbound(p);
    } catch (e) {
      if (e instanceof LinkError) return cv.error(e.key ? [...path, e.key] : path, e.message);
      return cv.error(path, `cannot read this proxy: ${(e as Error).message}`);
    }
    const tag = String(out.tag);
    cv.tags.add(tag);
    names.push(tag);
    const fields: Record<string, string> = { server: "server", server_port: "port" };
    for (const k of ["password", "uuid", "method", "tls", "transport", "plugin", "plugin_opts"]) {
      fields[k] = k;
    }
    fields.method = "cipher";
    fields.transport = "network";
    fields.detour = "dialer-proxy";
    cv.push([out.type === "wireguard" && !("server" in out) ? "endpoints" : "outbounds"], out, path, fields);
  });
  return names;
}
