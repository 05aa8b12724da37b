/** Every unsupported key, section and malformed line of a Surge profile is reported at its line. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { checkConfig } from "../../../src/config/mod.ts";
import { ConfigError } from "../../../src/common/errors.ts";

const dir = new URL("./golden/", import.meta.url).pathname;

interface Case {
  name: string;
  conf: string;
  /** [line, message]; the message is matched as a prefix of the error's detail. */
  errors?: [number, string][];
  warnings?: [number, string][];
}

const P = "[Proxy]\np = ss, 1.2.3.4, 8388, encrypt-method=aes-128-gcm, password=x\n";

const CASES: Case[] = [
  { name: "line outside a section", conf: "loglevel = info\n", errors: [[1, "line outside a section"]] },
  {
    name: "unknown general key",
    conf: "[General]\nbogus = 1\n",
    errors: [[2, 'unknown [General] key "bogus"']],
  },
  {
    name: "warned general key",
    conf: "[General]\n# c\nalways-real-ip = *.lan\n",
    warnings: [[3, '"always-real-ip" is ignored']],
  },
  { name: "bad log level", conf: "[General]\nloglevel = loud\n", errors: [[2, 'unknown log level "loud"']] },
  {
    name: "bad listen",
    conf: "[General]\nhttp-listen = nowhere\n",
    errors: [[2, 'expected "address:port"']],
  },
  {
    name: "out of range listen port",
    conf: "[General]\n\nsocks5-listen = 0.0.0.0:70000\n",
    errors: [[3, 'expected "address:port"']],
  },
  { name: "dhcp dns", conf: "[General]\ndns-server = dhcp://en0\n", errors: [[2, '"dhcp://en0": DHCP DNS']] },
  {
    name: "bad skip-proxy",
    conf: "[General]\nskip-proxy = 10.*.1.1\n",
    errors: [[2, "skip-proxy: pattern"]],
  },
  {
    name: "snell",
    conf: "[Proxy]\ns = snell, 1.2.3.4, 443, psk=x\n",
    errors: [[2, 'proxy "s": snell proxies are not supported']],
  },
  {
    name: "unknown proxy type",
    conf: "[Proxy]\n\nx = ssr, a, 1\n",
    errors: [[3, 'proxy "x": unknown proxy type "ssr"']],
  },
  { name: "proxy missing =", conf: "[Proxy]\njust words\n", errors: [[2, 'expected "Name = type']] },
  {
    name: "bad port",
    conf: "[Proxy]\nh = http, a.example, 99999\n",
    errors: [[2, 'proxy "h": invalid port "99999"']],
  },
  {
    name: "unknown proxy parameter",
    conf: "[Proxy]\nh = http, a.example, 80, colour=red\n",
    errors: [[2, 'proxy "h": unknown parameter "colour"']],
  },
  {
    name: "certificate pinning refused",
    conf: "[Proxy]\nt = trojan, a.example, 443, password=x, server-cert-fingerprint-sha256=AB\n",
    errors: [[2, 'proxy "t": "server-cert-fingerprint-sha256" (certificate pinning) is not supported']],
  },
  {
    name: "bad ss method",
    conf: "[Proxy]\ns = ss, a.example, 443, encrypt-method=rot13, password=x\n",
    errors: [[2, 'proxy "s": unknown shadowsocks method "rot13"']],
  },
  {
    name: "tuic v4",
    conf: "[Proxy]\nt = tuic, a.example, 443, token=x\n",
    errors: [[2, 'proxy "t": TUIC v4']],
  },
  {
    name: "duplicate proxy",
    conf: P + "p = direct\n",
    errors: [[3, 'duplicate proxy name "p"']],
  },
  {
    name: "vmess without aead warns",
    conf: "[Proxy]\nv = vmess, a.example, 443, username=6f1b2f3c-4a5b-4c6d-8e9f-0a1b2c3d4e5f\n",
    warnings: [[2, 'proxy "v": without vmess-aead=true']],
  },
  {
    name: "surge 2 custom proxy",
    conf: "[Proxy]\nold = custom, 1.2.3.4, 443, aes-256-cfb, pw, http://example.com/SSEncrypt.module\n",
    errors: [[
      2,
      'proxy "old": "custom" proxies with a module URL: the older profile format (Surge 2) is not supported',
    ]],
  },
  {
    name: "proxy override directive",
    conf: "#!PROXY-OVERRIDE:old.conf\n[General]\n",
    errors: [[1, "#!PROXY-OVERRIDE: the older profile format (Surge 2) is not supported"]],
  },
  {
    name: "wireguard section missing",
    conf: "[Proxy]\nw = wireguard, section-name = nope\n",
    errors: [[2, 'proxy "w": no [WireGuard nope] section']],
  },
  {
    name: "group unknown member",
    conf: P + "[Proxy Group]\ng = select, p, ghost\n",
    errors: [[4, 'unknown proxy or group "ghost"']],
  },
  {
    name: "group unknown type",
    conf: P + "[Proxy Group]\ng = smart, p\n",
    errors: [[4, 'group "g": unknown group type "smart"']],
  },
  {
    name: "group bad regex",
    conf: P + "[Proxy Group]\ng = select, include-all-proxies=1, policy-regex-filter=(\n",
    errors: [[4, 'group "g": invalid policy-regex-filter']],
  },
  {
    name: "group empty after filter",
    conf: P + "[Proxy Group]\ng = select, include-all-proxies=true, policy-regex-filter=^zz\n",
    errors: [[4, 'group "g" has no members']],
  },
  {
    name: "missing policy-path file",
    conf: P + "[Proxy Group]\ng = select, policy-path=no-such.list\n",
    errors: [[4, 'cannot read policy-path file "no-such.list"']],
  },
  {
    name: "remote policy-path",
    conf: P + "[Proxy Group]\ng = select, policy-path=https://x.example/list\n",
    errors: [[4, 'policy-path "https://x.example/list": downloading policy lists is not supported']],
  },
  {
    name: "missing include",
    conf: "[Proxy]\n#!include missing.conf\n",
    errors: [[2, 'cannot read included file "missing.conf"']],
  },
  {
    name: "error inside an included file names it",
    conf: "[Proxy]\n#!include files/bad_proxies.conf\n",
    errors: [[2, 'proxy "bad": unknown proxy type "nope"']],
  },
  {
    name: "error inside a rule-set file",
    conf: "[Rule]\nRULE-SET,files/bad_rules.list,DIRECT\n",
    errors: [[2, 'invalid rule "URL-REGEX,^http://x": rule type "URL-REGEX" matches HTTP requests']],
  },
  {
    name: "missing rule-set file",
    conf: "[Rule]\nRULE-SET,nothing.list,DIRECT\n",
    errors: [[2, 'invalid rule "RULE-SET,nothing.list,DIRECT": cannot read RULE-SET file "nothing.list"']],
  },
  {
    name: "SYSTEM rule set is built in",
    conf: "[Rule]\nRULE-SET,SYSTEM,DIRECT\nRULE-SET,LAN,DIRECT\nFINAL,DIRECT\n",
  },
  {
    name: "unknown rule type",
    conf: "[Rule]\nFOO,bar,DIRECT\n",
    errors: [[2, 'invalid rule "FOO,bar,DIRECT": unknown rule type "FOO"']],
  },
  {
    name: "url-regex refused",
    conf: "[Rule]\nURL-REGEX,^http,REJECT\n",
    errors: [[2, 'invalid rule "URL-REGEX,^http,REJECT"']],
  },
  {
    name: "missing policy",
    conf: "[Rule]\nDOMAIN,a.com\n",
    errors: [[2, 'invalid rule "DOMAIN,a.com": missing policy']],
  },
  {
    name: "unknown policy",
    conf: "[Rule]\nDOMAIN,a.com,Nope\n",
    errors: [[2, 'unknown proxy or group "Nope"']],
  },
  {
    name: "bad port rule",
    conf: "[Rule]\nDEST-PORT,http,DIRECT\n",
    errors: [[2, 'invalid rule "DEST-PORT,http,DIRECT": invalid port "http"']],
  },
  {
    name: "in-port without listener",
    conf: "[Rule]\nIN-PORT,1234,DIRECT\n",
    errors: [[2, 'invalid rule "IN-PORT,1234,DIRECT": no listener on port "1234"']],
  },
  {
    name: "bad protocol",
    conf: "[Rule]\nPROTOCOL,DOH,DIRECT\n",
    errors: [[2, 'invalid rule "PROTOCOL,DOH,DIRECT": protocol "DOH"']],
  },
  {
    name: "unbalanced logical",
    conf: "[Rule]\nAND,((DOMAIN,a),DIRECT\n",
    errors: [[2, 'invalid rule "AND,((DOMAIN,a),DIRECT"']],
  },
  {
    name: "rule after FINAL",
    conf: "[Rule]\nFINAL,DIRECT\nDOMAIN,a.com,DIRECT\n",
    warnings: [[3, "rule after FINAL never applies"]],
  },
  { name: "host alias", conf: "[Host]\na.com = b.com\n", errors: [[2, 'host "a.com" = "b.com": aliases']] },
  {
    name: "url rewrite",
    conf: "[URL Rewrite]\n^http://a http://b 302\n",
    errors: [[1, "[URL Rewrite]: rewriting"]],
  },
  {
    name: "script",
    conf: "[General]\n[Script]\nx = type=http-response\n",
    errors: [[2, "[Script]: scripts are not supported"]],
  },
  { name: "unknown section", conf: "[Bogus]\nx = 1\n", errors: [[1, "unknown section [Bogus]"]] },
  { name: "mitm warns", conf: "[MITM]\nhostname = a.com\n", warnings: [[1, "[MITM] is ignored"]] },
  {
    name: "replica warns",
    conf: "[Replica]\nhide-apple-request = true\n",
    warnings: [[1, "[Replica] is ignored"]],
  },
  {
    name: "quic proxies converted but not run yet",
    conf: "[Proxy]\nhy = hysteria2, a.example, 443, password=x\n" +
      "tu = tuic-v5, a.example, 443, uuid=2d5e8b76-9c1a-4f3e-b2d7-8a6c4e1f0b39, password=x\n",
    errors: [[2, 'outbound type "hysteria2" is not implemented yet'], [
      3,
      'outbound type "tuic" is not implemented yet',
    ]],
  },
];

for (const c of CASES) {
  Deno.test(`surge errors: ${c.name}`, () => {
    const r = checkConfig(c.conf, { file: `${dir}case.conf` });
    const got = r.errors.map((e) => [e.line, e.detail] as [number | undefined, string]);
    const want = c.errors ?? [];
    assertEquals(got.length, want.length, JSON.stringify(got));
    want.forEach(([line, prefix], i) => {
      assertEquals(got[i][0], line, JSON.stringify(got[i]));
      assertEquals(
        got[i][1].startsWith(prefix),
        true,
        `${JSON.stringify(got[i][1])} should start with ${prefix}`,
      );
    });
    for (const [line, prefix] of c.warnings ?? []) {
      const found = r.warnings.find((w) => w.message.startsWith(prefix));
      assertEquals(found !== undefined, true, `warning ${prefix} in ${JSON.stringify(r.warnings)}`);
      void line;
    }
  });
}

Deno.test("surge errors: an included file's line is named in the path", () => {
  const r = checkConfig("[Proxy]\n#!include files/bad_proxies.conf\n", { file: `${dir}case.conf` });
  assertEquals(r.errors.map((e) => e.path), ["files/bad_proxies.conf:2 [Proxy]"]);
});

Deno.test("surge errors: a finding made while building the engine moves to its rule line", () => {
  const r = checkConfig("[Rule]\n\nGEOIP,CN,DIRECT\n", { file: `${dir}case.conf` });
  assertEquals(r.errors, []);
  // rules: [resolve, geoip]; the engine refuses the geoip condition of the second.
  const e = r.relocate(
    new ConfigError("/route/rules/1", 'route rule condition "geoip" is not supported yet'),
  );
  assertEquals([e.line, e.path], [3, "[Rule]"]);
});
