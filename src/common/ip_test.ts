import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  canonicalIp,
  formatCidr,
  ipVersion,
  isPrivateIp,
  parseCidr,
  parseIp,
  parseIpInto,
  unmapIp,
} from "./ip.ts";

Deno.test("parseIp reads IPv4 and rejects malformed dotted quads", () => {
  deepStrictEqual([...parseIp("1.2.3.4")!.words], [0x01020304]);
  equal(parseIp("255.255.255.255")!.words[0], 0xffffffff);
  equal(parseIp("0.0.0.0")!.words[0], 0);
  for (
    const bad of [
      "",
      "1.2.3",
      "1.2.3.4.5",
      "256.1.1.1",
      "01.2.3.4",
      "1..2.3",
      "1.2.3.",
      " 1.2.3.4",
      "a.b.c.d",
      "1.2.3.4/8",
    ]
  ) {
    equal(parseIp(bad), undefined, bad);
  }
});

Deno.test("parseIp reads IPv6 forms", () => {
  deepStrictEqual([...parseIp("::")!.words], [0, 0, 0, 0]);
  deepStrictEqual([...parseIp("::1")!.words], [0, 0, 0, 1]);
  deepStrictEqual([...parseIp("1::")!.words], [0x00010000, 0, 0, 0]);
  deepStrictEqual([...parseIp("2001:DB8::8:800:200C:417A")!.words], [0x20010db8, 0, 0x00080800, 0x200c417a]);
  deepStrictEqual([...parseIp("1:2:3:4:5:6:7:8")!.words], [0x00010002, 0x00030004, 0x00050006, 0x00070008]);
  deepStrictEqual([...parseIp("1:2:3:4:5:6:7::")!.words], [0x00010002, 0x00030004, 0x00050006, 0x00070000]);
  deepStrictEqual([...parseIp("::2:3:4:5:6:7:8")!.words], [0x00000002, 0x00030004, 0x00050006, 0x00070008]);
  deepStrictEqual([...parseIp("64:ff9b::192.0.2.33")!.words], [0x0064ff9b, 0, 0, 0xc0000221]);
  deepStrictEqual([...parseIp("::ffff:10.1.2.3")!.words], [0, 0, 0xffff, 0x0a010203]);
  for (
    const bad of [
      ":",
      ":::",
      "1:2",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7:8::",
      "::1:2:3:4:5:6:7:8",
      "12345::",
      "1:",
      ":1",
      "g::",
      "fe80::1%eth0",
      "[::1]",
      "::1.2.3",
      "::1.2.3.4:5",
      "1:2:3:4:5:6:7:1.2.3.4",
    ]
  ) {
    equal(parseIp(bad), undefined, bad);
  }
});

Deno.test("parseIpInto unmaps IPv4-mapped IPv6", () => {
  const w = new Uint32Array(4);
  equal(parseIpInto("::ffff:192.168.1.1", w), 4);
  equal(w[0], 0xc0a80101);
  equal(parseIpInto("::ffff:c0a8:101", w), 4);
  equal(w[0], 0xc0a80101);
  equal(parseIpInto("2001:db8::1", w), 6);
  equal(parseIpInto("example.com", w), 0);
  equal(parseIpInto("", w), 0);
});

Deno.test("ipVersion classifies hosts", () => {
  equal(ipVersion("8.8.8.8"), 4);
  equal(ipVersion("2001:4860:4860::8888"), 6);
  equal(ipVersion("::ffff:8.8.8.8"), 4);
  equal(ipVersion("dns.google"), 0);
  equal(ipVersion("1.2.3.4."), 0);
});

Deno.test("parseCidr masks host bits and accepts bare addresses", () => {
  equal(formatCidr(parseCidr("10.1.2.3/8")!), "10.0.0.0/8");
  equal(formatCidr(parseCidr("10.1.2.3")!), "10.1.2.3/32");
  equal(formatCidr(parseCidr("0.0.0.0/0")!), "0.0.0.0/0");
  equal(formatCidr(parseCidr("2001:db8:abcd::1/33")!), "2001:db8:8000::/33");
  equal(formatCidr(parseCidr("::/0")!), "::/0");
  equal(formatCidr(parseCidr("::1")!), "::1/128");
  for (
    const bad of ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/08", "10.0.0.0/-1", "x/8", "10.0.0.0/8/8"]
  ) {
    equal(parseCidr(bad), undefined, bad);
  }
});

Deno.test("formatIp writes RFC 5952 text", () => {
  equal(canonicalIp("2001:0DB8:0000:0000:0000:0000:0000:0001"), "2001:db8::1");
  equal(canonicalIp("2001:db8:0:1:1:1:1:1"), "2001:db8:0:1:1:1:1:1");
  equal(canonicalIp("2001:0:0:1:0:0:0:1"), "2001:0:0:1::1");
  equal(canonicalIp("2001:db8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");
  equal(canonicalIp("0:0:0:0:0:0:0:0"), "::");
  equal(canonicalIp("::ffff:1.2.3.4"), "::ffff:1.2.3.4");
  equal(canonicalIp("1.2.3.4"), "1.2.3.4");
  equal(canonicalIp("nope"), undefined);
  const mapped = parseIp("::ffff:1.2.3.4")!;
  deepStrictEqual(unmapIp(mapped), { version: 4, words: Uint32Array.of(0x01020304) });
});

Deno.test("isPrivateIp follows Go netip predicates used by sing-box", () => {
  const priv = [
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "127.0.0.1",
    "169.254.1.1",
    "224.0.0.1",
    "239.255.255.250",
    "0.0.0.0",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "ff01::1",
    "ff0e::1",
    "::ffff:10.0.0.1",
  ];
  const pub = [
    "8.8.8.8",
    "172.32.0.1",
    "100.64.0.1",
    "192.0.2.1",
    "0.0.0.1",
    "2001:db8::1",
    "2606:4700::1111",
    "::2",
    "::ffff:8.8.8.8",
  ];
  for (const a of priv) ok(isPrivateIp(a), a);
  for (const a of pub) ok(!isPrivateIp(a), a);
  ok(!isPrivateIp("localhost"));
});
