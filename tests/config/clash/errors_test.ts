/** Every unsupported key and malformed line of a Clash file is reported at its line and column. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { checkConfig } from "../../../src/config/mod.ts";

const PROXY =
  "proxies:\n  - {name: p, type: ss, server: 1.2.3.4, port: 8388, cipher: aes-128-gcm, password: x}\n";

interface Case {
  name: string;
  yaml: string;
  /** [path, line, column, message] */
  errors?: [string, number, number, string][];
  warnings?: [string, number, string][];
}

const CASES: Case[] = [
  {
    name: "syntax",
    yaml: "port: 1\nproxies: [a\nrules: b: c\n",
    errors: [["", 3, 1, "Flow sequence in block collection must be sufficiently indented and end with a ]"], [
      "",
      3,
      8,
      "Nested mappings are not allowed in compact mappings",
    ]],
  },
  { name: "duplicate key", yaml: "port: 1\nport: 2\n", errors: [["", 2, 1, "Map keys must be unique"]] },
  {
    name: "not a mapping",
    yaml: "- a\n- b\n",
    errors: [["", 1, 1, "expected a YAML mapping at the top level"]],
  },
  {
    name: "unknown key",
    yaml: "mixed-port: 7890\nbogus-key: 1\n",
    errors: [["/bogus-key", 2, 1, 'unknown key "bogus-key"']],
  },
  {
    name: "warned key",
    yaml: "mixed-port: 7890\ntcp-concurrent: true\n",
    warnings: [[
      "/tcp-concurrent",
      2,
      '"tcp-concurrent" is ignored: addresses are dialled as the dial fields say',
    ]],
  },
  {
    name: "refused lan filter",
    yaml: "mixed-port: 7890\nlan-allowed-ips: [192.168.0.0/16]\n",
    errors: [["/lan-allowed-ips", 2, 1, "client address filters are not supported"]],
  },
  { name: "lan filter that allows all", yaml: "mixed-port: 7890\nlan-allowed-ips: [0.0.0.0/0, ::/0]\n" },
  { name: "bad port", yaml: "mixed-port: abc\n", errors: [["/mixed-port", 1, 1, "expected a port number"]] },
  {
    name: "out of range port",
    yaml: "mixed-port: 70000\n",
    errors: [["/mixed-port", 1, 1, "port must be from 0 to 65535 (inbounds.0.listen_port)"]],
  },
  {
    name: "bad log level",
    yaml: "log-level: loud\n",
    errors: [[
      "/log-level",
      1,
      1,
      'unknown log level "loud": expected silent, error, warning, info or debug',
    ]],
  },
  {
    name: "bad mode",
    yaml: "mode: script\n",
    errors: [["/mode", 1, 1, 'unknown mode "script": expected rule, global or direct']],
  },
  {
    name: "bad authentication",
    yaml: "mixed-port: 1\nauthentication: [nocolon]\n",
    errors: [["/authentication/0", 2, 18, 'expected "user:password"']],
  },
  {
    name: "proxy missing key",
    yaml: "proxies:\n  - name: p\n    type: vmess\n    server: a\n    port: 1\n",
    errors: [["/proxies/0/uuid", 2, 5, 'missing "uuid"']],
  },
  {
    name: "proxy bad port",
    yaml:
      "proxies:\n  - name: p\n    type: ss\n    server: a\n    port: 0\n    cipher: aes-128-gcm\n    password: x\n",
    errors: [["/proxies/0/port", 5, 5, '"port": expected an integer from 1 to 65535']],
  },
  {
    name: "duplicate proxy name",
    yaml: PROXY + "  - {name: p, type: ss, server: 1.2.3.5, port: 8388, cipher: aes-128-gcm, password: x}\n",
    errors: [["/proxies/1/name", 3, 6, 'duplicate proxy name "p"']],
  },
  {
    name: "unknown group member",
    yaml: PROXY + "proxy-groups:\n  - name: g\n    type: select\n    proxies: [p, nope]\n",
    errors: [["/proxy-groups/0/proxies/1", 6, 18, 'unknown proxy or group "nope"']],
  },
  {
    name: "unknown group type",
    yaml: PROXY + "proxy-groups:\n  - {name: g, type: magic, proxies: [p]}\n",
    errors: [["/proxy-groups/0/type", 4, 15, 'unknown group type "magic"']],
  },
  {
    name: "unknown group key",
    yaml: PROXY + "proxy-groups:\n  - {name: g, type: select, proxies: [p], colour: red}\n",
    errors: [["/proxy-groups/0/colour", 4, 43, 'unknown group key "colour"']],
  },
  {
    name: "group display key warned",
    yaml: PROXY + "proxy-groups:\n  - {name: g, type: select, proxies: [p], icon: x.png}\n",
    warnings: [["/proxy-groups/0/icon", 4, '"icon" is ignored']],
  },
  {
    name: "relay ending with a group",
    yaml: PROXY +
      "proxy-groups:\n  - {name: s, type: select, proxies: [p]}\n  - {name: r, type: relay, proxies: [p, s]}\n",
    errors: [["/proxy-groups/1/proxies/1", 5, 41, "a relay must end with a proxy, not a group"]],
  },
  {
    name: "bad rule",
    yaml: PROXY + "rules:\n  - DOMAIN-SUFFIX,a.com\n",
    errors: [["/rules/0", 4, 5, 'invalid rule "DOMAIN-SUFFIX,a.com": missing target']],
  },
  {
    name: "unknown rule type",
    yaml: PROXY + "rules:\n  - FOO,bar,p\n",
    errors: [["/rules/0", 4, 5, 'invalid rule "FOO,bar,p": rule type "FOO" is not supported']],
  },
  {
    name: "unknown rule target",
    yaml: PROXY + "rules:\n  - DOMAIN,a.com,Nope\n",
    errors: [["/rules/0", 4, 5, 'unknown proxy or group "Nope"']],
  },
  {
    name: "bad logical rule",
    yaml: PROXY + "rules:\n  - AND,((DOMAIN,a.com),(NETWORK,UDP),p\n",
    errors: [[
      "/rules/0",
      4,
      5,
      'invalid rule "AND,((DOMAIN,a.com),(NETWORK,UDP),p": unbalanced parentheses',
    ]],
  },
  {
    name: "bad port rule",
    yaml: PROXY + "rules:\n  - DST-PORT,99999,p\n",
    errors: [["/rules/0", 4, 5, 'invalid rule "DST-PORT,99999,p": invalid port "99999"']],
  },
  {
    name: "unknown sub-rule",
    yaml: PROXY + "rules:\n  - SUB-RULE,(NETWORK,TCP),nope\n",
    errors: [["/rules/0", 4, 5, 'unknown sub-rule "nope"']],
  },
  {
    name: "rule after MATCH",
    yaml: PROXY + "rules:\n  - MATCH,p\n  - DOMAIN,a.com,p\n",
    warnings: [["/rules/1", 5, "rule after MATCH never applies; ignored"]],
  },
  {
    name: "dhcp dns",
    yaml: "dns:\n  enable: true\n  nameserver: [dhcp://en0]\n",
    errors: [["/dns/nameserver/0", 3, 16, '"dhcp://en0": DHCP DNS servers are not supported']],
  },
  {
    name: "respect-rules",
    yaml: "dns:\n  enable: true\n  respect-rules: true\n  nameserver: [1.1.1.1]\n",
    errors: [[
      "/dns/respect-rules",
      3,
      3,
      "respect-rules is not supported: give each server a proxy with #name instead",
    ]],
  },
  {
    name: "unknown dns key",
    yaml: "dns:\n  enable: true\n  nameserver: [1.1.1.1]\n  magic: 1\n",
    errors: [["/dns/magic", 4, 3, 'unknown dns key "magic"']],
  },
  {
    name: "dns without nameserver",
    yaml: "dns:\n  enable: true\n",
    errors: [["/dns", 1, 1, 'dns needs "nameserver"']],
  },
  {
    name: "unknown provider",
    yaml: PROXY + "proxy-groups:\n  - {name: g, type: select, use: [nope]}\n",
    errors: [["/proxy-groups/0/use/0", 4, 35, 'unknown proxy provider "nope"']],
  },
  {
    name: "rule-provider behavior",
    yaml: "rule-providers:\n  r:\n    type: file\n    behavior: words\n    path: r.yaml\n",
    errors: [[
      "/rule-providers/r/behavior",
      4,
      5,
      'unknown behavior "words": expected domain, ipcidr or classical',
    ]],
  },
  {
    name: "tun is not implemented",
    yaml: "tun:\n  enable: true\n  stack: system\n",
    errors: [["/tun", 1, 1, 'inbound type "tun" is not implemented yet (inbounds.0.type)']],
  },
  { name: "disabled tun is fine", yaml: "mixed-port: 1\ntun:\n  enable: false\n" },
];

for (const c of CASES) {
  Deno.test(`clash errors: ${c.name}`, () => {
    const r = checkConfig(c.yaml, { file: "config.yaml" });
    assertEquals(r.errors.map((e) => [e.path, e.line, e.column, e.detail]), c.errors ?? []);
    assertEquals(
      r.warnings.filter((w) => c.warnings?.some(([p]) => p === w.path)).map((w) => [w.path, w.message]),
      (c.warnings ?? []).map(([p, , m]) => [p, m]),
    );
    if (!c.errors) assert(r.model, "a file with no errors loads");
  });
}
