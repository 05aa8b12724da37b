/**
 * Every malformed entry is reported with its line and why, and the good entries around it are
 * still imported: link lists, base64 bodies (lines of the decoded text), Clash YAML (the line of
 * the offending key) and sing-box JSON.
 */
import { deepStrictEqual } from "node:assert/strict";
import { importShareLinks } from "../../../src/config/links/mod.ts";

const UUID = "b831381d-6324-4d53-ad4f-8cda48b30811";
const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const vmess = (o: Record<string, unknown>) => `vmess://${b64(JSON.stringify(o))}`;
const GOOD = "trojan://pw@good.example.com:443#good";
const WG_KEY = "H48yzAxYx462r/ahWYLAATAMtEaMi/YdSKGvRxvYEsc=";

/** [bad link, message]. */
const BAD_LINKS: [string, string][] = [
  ["foo://bar", 'unknown scheme "foo"'],
  ["just some text", "not a share link: expected scheme://"],
  ["ss://!!!notbase64", "bad base64 in the ss:// link"],
  [`ss://${b64("aes-128-gcm:pw")}@host.example.com#no-port`, "missing port"],
  [`ss://${b64("aes-128-gcm:pw")}@host.example.com:99999#big-port`, 'invalid port "99999"'],
  [`ss://${b64("aes-128-gcm:pw")}@host.example.com:http#word-port`, 'invalid port "http"'],
  [`ss://${b64("aes-128-gcm:pw")}@:8388`, "missing server address"],
  [`ss://${b64("rot13:pw")}@h.example.com:8388`, 'unknown shadowsocks method "rot13"'],
  [`ss://${b64("nocolon")}@h.example.com:8388`, 'expected "method:password" in the user info'],
  ["ss://%%%@h.example.com:8388", "bad base64 in the user info of the ss:// link"],
  [
    `ss://${b64("aes-128-gcm:pw")}@h.example.com:8388/?plugin=kcptun%3Bkey%3Dx`,
    'shadowsocks plugin "kcptun" is not supported (only obfs-local and v2ray-plugin)',
  ],
  [
    `ss://${b64("aes-128-gcm:pw-h.example.com:8388")}`,
    'expected "method:password@host:port" in the decoded ss:// link',
  ],
  ["ss://2001:db8::1:8388", 'invalid server address "2001:db8::1:8388": write an IPv6 address in brackets'],
  [
    `vless://${UUID}@2001:db8::1:443`,
    'invalid server address "2001:db8::1:443": write an IPv6 address in brackets',
  ],
  [`vless://${UUID}@[2001:db8::1:443`, 'unterminated IPv6 address "[2001:db8::1:443"'],
  ["vmess://@@@", "bad base64 in the vmess:// link"],
  [`vmess://${b64("{not json")}`, "the decoded vmess:// link is not valid JSON"],
  [`vmess://${b64("[1,2]")}`, "the vmess:// payload is neither v2rayN JSON nor security:uuid@host:port"],
  [vmess({ add: "h.example.com", port: "443", id: UUID, net: "kcp" }), 'transport "kcp" is not supported'],
  [
    vmess({ add: "h.example.com", port: "443", id: UUID, net: "tcp", type: "http" }),
    'TCP header type "http" is not supported',
  ],
  [vmess({ add: "h.example.com", port: "443", net: "ws" }), "missing user id"],
  [vmess({ add: "h.example.com", id: UUID }), "missing port"],
  [vmess({ add: "", port: 1, id: UUID }), "missing server address"],
  [vmess({ add: "h.example.com", port: 443, id: UUID, scy: "rc4" }), 'unknown vmess security "rc4"'],
  [vmess({ add: "h.example.com", port: 443, id: UUID, aid: "-1" }), 'invalid alter id "-1"'],
  [
    vmess({ add: "h.example.com", port: 443, id: UUID, tls: "xtls" }),
    'vmess security layer "xtls" is not supported',
  ],
  [`vmess://${b64(`auto:${UUID}@h.example.com:443`)}?obfs=http`, 'vmess obfs "http" is not supported'],
  [`vless://@h.example.com:443`, "missing user id"],
  [
    `vless://${UUID}@h.example.com:443?encryption=aes-128-gcm`,
    'VLESS encryption "aes-128-gcm" is not supported',
  ],
  [
    `vless://${UUID}@h.example.com:443?security=tls&flow=xtls-rprx-direct`,
    'VLESS flow "xtls-rprx-direct" is not supported',
  ],
  [`vless://${UUID}@h.example.com:443?security=xtls`, 'security "xtls" is not supported'],
  [`vless://${UUID}@h.example.com:443?security=reality&sni=a.com`, "REALITY needs a public key"],
  [`vless://${UUID}@h.example.com:443?type=xhttp&security=tls`, 'transport "xhttp" is not supported'],
  ["trojan://@h.example.com:443", "missing password"],
  ["trojan://pw@h.example.com:0", 'invalid port "0"'],
  ["hysteria2://pw@h.example.com:443?pinSHA256=abc", "certificate pinning (pinSHA256) is not supported"],
  ["hy2://pw@h.example.com:443?obfs=xplus", 'hysteria2 obfs "xplus" is not supported'],
  ["hy2://pw@h.example.com:443,3000-2000", 'invalid port range "3000-2000"'],
  ["hy2://pw@h.example.com:443?upmbps=fast", 'invalid bandwidth "fast": expected Mbps as a number'],
  ["tuic://nocolon@h.example.com:443", 'expected "uuid:password" in the user info'],
  [`tuic://${UUID}:pw@h.example.com:443?congestion_control=reno`, 'unknown congestion control "reno"'],
  [`tuic://${UUID}:pw@h.example.com:443?udp_relay_mode=fast`, 'unknown UDP relay mode "fast"'],
  ["socks5://u:p@h.example.com:1080x", 'invalid port "1080x"'],
  ["https://u:p@/", "missing server address"],
  ["anytls://@h.example.com:443", "missing password"],
  [`wireguard://${WG_KEY}@h.example.com:51820?address=10.0.0.2`, "missing public key"],
  [`wireguard://${WG_KEY}@h.example.com:51820?publickey=${WG_KEY}`, "missing the interface address"],
  [
    `wireguard://short@h.example.com:51820?publickey=${WG_KEY}&address=10.0.0.2`,
    "invalid private key: expected 32 bytes of base64",
  ],
  [
    `wireguard://${WG_KEY}@h.example.com:51820?publickey=${WG_KEY}&address=10.0.0.2&reserved=1,2`,
    'invalid reserved bytes "1,2": expected three numbers 0-255',
  ],
  [
    `wireguard://${WG_KEY}@h.example.com:51820?publickey=${WG_KEY}&address=10.0.0.2&mtu=99999`,
    'invalid MTU "99999"',
  ],
  [`trojan://pw@h.example.com:443#${"x".repeat(70_000)}`, "link longer than 65536 characters"],
];

Deno.test("each malformed link is reported on its line with its reason, between good ones", () => {
  const lines: string[] = [];
  const expected: { line: number; message: string }[] = [];
  for (const [link, message] of BAD_LINKS) {
    lines.push(GOOD, link);
    expected.push({ line: lines.length, message });
  }
  const r = importShareLinks(lines.join("\n"));
  deepStrictEqual(r.problems, expected);
  deepStrictEqual(r.outbounds.length, BAD_LINKS.length);
});

Deno.test("a base64 body reports lines of the decoded list; bad base64 is line 1", () => {
  const r = importShareLinks(b64(`${GOOD}\r\n\r\nvless://x@h:notaport\n`));
  deepStrictEqual(r.format, "base64");
  deepStrictEqual(r.problems, [{ line: 3, message: 'invalid port "notaport"' }]);
  deepStrictEqual(r.outbounds.length, 1);
  deepStrictEqual(importShareLinks("YWJj=x==").problems, [
    { line: 1, message: "bad base64: the body is neither a link list nor base64 of one" },
  ]);
  // Base64 that decodes to bytes that are not UTF-8 text.
  deepStrictEqual(importShareLinks("//79").problems[0].line, 1);
});

Deno.test("Clash proxies: the line of the offending key, or of the entry", () => {
  const yaml = [
    "proxies:", // 1
    "  - name: ok", // 2
    "    type: trojan",
    "    server: t.example.com",
    "    port: 443",
    "    password: pw",
    "  - name: bad port", // 7
    "    type: vmess",
    "    server: v.example.com",
    "    port: 70000", // 10
    "    uuid: " + UUID,
    "  - name: no server", // 12
    "    type: ss",
    "    port: 1",
    "    cipher: aes-128-gcm",
    "  - {name: snell, type: snell, server: s, port: 1}", // 16
    "  - name: pinned", // 17
    "    type: trojan",
    "    server: t.example.com",
    "    port: 443",
    "    password: pw",
    "    fingerprint: abcdef", // 22
    "  - name: obfs http", // 23
    "    type: vmess",
    "    server: v.example.com",
    "    port: 443",
    "    uuid: " + UUID,
    "    network: http", // 28
    "  - just a string", // 29
    "  - name: tuic4", // 30
    "    type: tuic",
    "    server: t.example.com",
    "    port: 443",
    "    token: abc", // 34
    "  - name: bad wg", // 35
    "    type: wireguard",
    "    server: w.example.com",
    "    port: 51820",
    "    private-key: " + WG_KEY,
    "    public-key: " + WG_KEY,
    "    amnezia-wg-option: {jc: 4}", // 41
    "  - name: plugin", // 42
    "    type: ss",
    "    server: s.example.com",
    "    port: 1",
    "    cipher: aes-128-gcm",
    "    password: x",
    "    plugin: shadow-tls", // 48
    "  - name: udp", // 49
    "    type: trojan",
    "    server: t.example.com",
    "    port: 443",
    "    password: pw",
    "    udp: maybe", // 54
  ].join("\n");
  const r = importShareLinks(yaml);
  deepStrictEqual(r.format, "clash");
  deepStrictEqual(r.outbounds.map((o) => o.tag), ["ok"]);
  deepStrictEqual(r.problems, [
    { line: 10, message: 'proxy "bad port": "port": expected an integer from 1 to 65535' },
    { line: 12, message: 'proxy "no server": missing "server"' },
    { line: 16, message: 'proxy "snell": proxy type "snell" is not supported' },
    { line: 22, message: 'proxy "pinned": "fingerprint" (certificate pinning) is not supported' },
    { line: 28, message: 'proxy "obfs http": network "http" (HTTP/1.1 header obfuscation) is not supported' },
    { line: 29, message: "expected a proxy mapping" },
    { line: 34, message: 'proxy "tuic4": TUIC v4 (token) is not supported' },
    { line: 41, message: 'proxy "bad wg": AmneziaWG options are not supported' },
    {
      line: 48,
      message:
        'proxy "plugin": shadowsocks plugin "shadow-tls" is not supported (only obfs and v2ray-plugin)',
    },
    { line: 54, message: 'proxy "udp": "udp": expected true or false' },
  ]);
});

Deno.test("Clash YAML syntax errors and a missing list are reported with their line", () => {
  deepStrictEqual(importShareLinks("proxies:\n  - name: a\n  bad: [\n").problems[0].line > 1, true);
  deepStrictEqual(importShareLinks("proxies: 3\n").problems, [{
    line: 1,
    message: '"proxies" is not a list',
  }]);
  const dup = importShareLinks("proxies: []\nproxies: []\n").problems;
  deepStrictEqual(dup.length, 1);
  deepStrictEqual(dup[0].line, 2);
});

Deno.test("sing-box JSON: bad entries by line, syntax errors by line", () => {
  const text = [
    "{", // 1
    '  "outbounds": [', // 2
    '    {"type": "trojan", "tag": "t", "server": "t.example.com", "server_port": 443, "password": "p"},',
    '    "not an object",', // 4
    '    {"tag": "no type"},', // 5
    '    {"type": "wireguard", "tag": "old"}', // 6
    "  ]",
    "}",
  ].join("\n");
  const r = importShareLinks(text);
  deepStrictEqual(r.format, "sing-box");
  deepStrictEqual(r.outbounds.map((o) => o.tag), ["t"]);
  deepStrictEqual(r.problems, [
    { line: 4, message: 'outbounds[1]: expected an object with a "type"' },
    { line: 5, message: 'outbounds[2]: expected an object with a "type"' },
    { line: 6, message: "the wireguard outbound was removed in sing-box 1.13: use an endpoint" },
  ]);
  deepStrictEqual(importShareLinks('{\n  "outbounds": [\n    {,\n  ]\n}').problems, [
    { line: 3, message: "JSON: line 3, column 6: expected a value" },
  ]);
  deepStrictEqual(importShareLinks('{"inbounds": []}').problems, [
    { line: 1, message: 'the JSON document has no "outbounds"' },
  ]);
});

Deno.test("a body over the size cap is refused without parsing", () => {
  const r = importShareLinks("x".repeat(16 * 1024 * 1024 + 1));
  deepStrictEqual(r.problems, [{ line: 1, message: "the body is larger than 16777216 characters" }]);
});
