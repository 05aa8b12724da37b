/**
 * `ss://` links: SIP002 (`ss://base64(method:password)@host:port/?plugin=…#name`), the same with
 * a percent-encoded `method:password` (what SIP022 2022-ciphers use), and the old whole-base64
 * form `ss://base64(method:password@host:port)#name`.
 */
import { base64Text, parsePort, pctDecode, requireHost, splitHostPort, splitLink } from "./text.ts";
import { compact, type Json, LinkError } from "./types.ts";

/** Every method sing-box 1.14 accepts (the model implements the AEAD and 2022 ones). */
const METHODS = new Set([
  "none",
  "2022-blake3-aes-128-gcm",
  "2022-blake3-aes-256-gcm",
  "2022-blake3-chacha20-poly1305",
  "aes-128-gcm",
  "aes-192-gcm",
  "aes-256-gcm",
  "chacha20-ietf-poly1305",
  "xchacha20-ietf-poly1305",
  "aes-128-ctr",
  "aes-192-ctr",
  "aes-256-ctr",
  "aes-128-cfb",
  "aes-192-cfb",
  "aes-256-cfb",
  "rc4-md5",
  "chacha20-ietf",
  "xchacha20",
]);
const ALIASES: Record<string, string> = {
  plain: "none",
  dummy: "none",
  "chacha20-poly1305": "chacha20-ietf-poly1305",
  "xchacha20-poly1305": "xchacha20-ietf-poly1305",
};

/** A method name as sing-box spells it; fails for one it does not know. */
export function ssMethod(raw: string): string {
  const m = raw.trim().toLowerCase();
  const name = ALIASES[m] ?? m;
  if (!METHODS.has(name)) throw new LinkError(`unknown shadowsocks method "${raw.slice(0, 60)}"`);
  return name;
}

/** SIP003 plugin names as sing-box knows them. */
export function ssPluginName(raw: string): string {
  const p = raw.trim().toLowerCase();
  if (p === "obfs-local" || p === "simple-obfs" || p === "obfs") return "obfs-local";
  if (p === "v2ray-plugin") return "v2ray-plugin";
  throw new LinkError(
    `shadowsocks plugin "${raw.slice(0, 60)}" is not supported (only obfs-local and v2ray-plugin)`,
  );
}

export function shadowsocksOutbound(
  name: string,
  server: string,
  port: number,
  method: string,
  password: string,
  plugin?: string,
): Json {
  let pluginName: string | undefined, pluginOpts: string | undefined;
  if (plugin) {
    const semi = plugin.indexOf(";");
    pluginName = ssPluginName(semi < 0 ? plugin : plugin.slice(0, semi));
    pluginOpts = semi < 0 ? undefined : plugin.slice(semi + 1) || undefined;
  }
  return compact({
    type: "shadowsocks",
    tag: name,
    server,
    server_port: port,
    method: ssMethod(method),
    password,
    plugin: pluginName,
    plugin_opts: pluginOpts,
  });
}

function methodPassword(text: string): { method: string; password: string } {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new LinkError('expected "method:password" in the user info');
  return { method: text.slice(0, colon), password: text.slice(colon + 1) };
}

export function parseShadowsocks(link: string): Json {
  const parts = splitLink(link);
  if (parts.user === undefined) {
    // Old form: everything before # (and an optional ?plugin) is base64 of method:password@host:port.
    const body = link.slice(5).split("#")[0].split("?")[0].replace(/\/$/, "");
    const decoded = base64Text(pctDecode(body));
    if (decoded === undefined) throw new LinkError("bad base64 in the ss:// link");
    const at = decoded.lastIndexOf("@");
    if (at < 0) throw new LinkError('expected "method:password@host:port" in the decoded ss:// link');
    const { method, password } = methodPassword(decoded.slice(0, at));
    const { host, portText } = splitHostPort(decoded.slice(at + 1).trim());
    return shadowsocksOutbound(
      parts.name,
      requireHost(host),
      parsePort(portText),
      method,
      password,
      parts.params.get("plugin"),
    );
  }
  const raw = pctDecode(parts.user);
  let mp: { method: string; password: string };
  if (raw.includes(":")) mp = methodPassword(raw);
  else {
    const decoded = base64Text(raw);
    if (decoded === undefined) throw new LinkError("bad base64 in the user info of the ss:// link");
    mp = methodPassword(decoded);
  }
  return shadowsocksOutbound(
    parts.name,
    requireHost(parts.host),
    parsePort(parts.portText),
    mp.method,
    mp.password,
    parts.params.get("plugin"),
  );
}
