/**
 * Golden tests: every body in `corpus/` (links of each scheme as v2rayN, Shadowrocket, Clash and
 * sing-box users share them; base64 and plain subscriptions; a Clash YAML and a sing-box JSON
 * document) is imported and compared with `expected/<name>.json`. Regenerate after a deliberate
 * change with `UPDATE_GOLDEN=1 ./scripts/deno test -A tests/config/links/golden_test.ts`, then
 * review the diff.
 *
 * The outputs of types the engine implements must also pass `checkConfig`, except for the fields
 * the reference table refuses until their issue lands (uTLS, REALITY, flow, multiplex, UDP over
 * TCP): those must be the only errors.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { checkConfig, SHADOWSOCKS_METHODS } from "../../../src/config/mod.ts";
import { importShareLinks } from "../../../src/config/links/mod.ts";

const dir = new URL("./corpus/", import.meta.url);
const expectedDir = new URL("./expected/", import.meta.url);
const update = Deno.env.get("UPDATE_GOLDEN") === "1";

const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
const IMPLEMENTED = new Set(["shadowsocks", "vmess", "vless", "trojan", "socks", "http", "direct"]);
const REFUSED_UNTIL_LATER =
  /^\/outbounds\/\d+\/(tls\/utls|tls\/reality|flow|multiplex|udp_over_tcp): .*not implemented yet/;

Deno.test("the corpus covers every scheme and format", () => {
  const text = names.map((n) => Deno.readTextFileSync(new URL(n, dir))).join("\n");
  for (
    const scheme of [
      "ss",
      "vmess",
      "vless",
      "trojan",
      "hysteria2",
      "hy2",
      "tuic",
      "socks",
      "socks5",
      "http",
      "https",
      "anytls",
      "wireguard",
    ]
  ) {
    ok(text.includes(`${scheme}://`), scheme);
  }
  const formats = new Set(names.map((n) => importShareLinks(Deno.readTextFileSync(new URL(n, dir))).format));
  deepStrictEqual([...formats].sort(), ["base64", "clash", "links", "sing-box"]);
});

for (const name of names) {
  Deno.test(`golden: ${name}`, () => {
    const result = importShareLinks(Deno.readTextFileSync(new URL(name, dir)));
    const file = new URL(`${name.replace(/\.\w+$/, "")}.json`, expectedDir);
    const got = JSON.parse(JSON.stringify(result));
    if (update) Deno.writeTextFileSync(file, JSON.stringify(got, null, 2) + "\n");
    deepStrictEqual(got, JSON.parse(Deno.readTextFileSync(file)));
    ok(result.outbounds.length + result.endpoints.length > 0, "imports something");

    const tags = [...result.outbounds, ...result.endpoints].map((o) => o.tag);
    deepStrictEqual(new Set(tags).size, tags.length, "tags are unique");

    // Outbounds may name others (dialer-proxy → detour); keep those only when the target is kept.
    // Legacy stream ciphers are valid sing-box but not in the model.
    const modelled = (o: Record<string, unknown>) =>
      IMPLEMENTED.has(String(o.type)) &&
      (o.type !== "shadowsocks" || (SHADOWSOCKS_METHODS as readonly unknown[]).includes(o.method));
    const implemented = result.outbounds.filter(modelled);
    const kept = new Set(implemented.map((o) => o.tag));
    const outbounds = implemented.filter((o) => o.detour === undefined || kept.has(o.detour as string));
    if (outbounds.length === 0) return;
    const { errors } = checkConfig(JSON.stringify({ outbounds }));
    const unexpected = errors.filter((e) => !REFUSED_UNTIL_LATER.test(e.message));
    deepStrictEqual(unexpected.map((e) => e.message), [], "checkConfig accepts the implemented outbounds");
  });
}
