import { equal, ok, throws } from "node:assert/strict";
import { CidrSet, CidrSetBuilder } from "./cidr_set.ts";

Deno.test("CidrSet matches IPv4 prefixes at their bounds", () => {
  const set = CidrSet.from(["10.0.0.0/8", "192.168.1.0/24", "1.2.3.4", "0.0.0.0/32"]);
  ok(set.has("10.0.0.0"));
  ok(set.has("10.255.255.255"));
  ok(!set.has("11.0.0.0"));
  ok(!set.has("9.255.255.255"));
  ok(set.has("192.168.1.77"));
  ok(!set.has("192.168.2.1"));
  ok(set.has("1.2.3.4"));
  ok(!set.has("1.2.3.5"));
  ok(set.has("0.0.0.0"));
  ok(!set.has("example.com"));
  ok(!set.has("::1"));
});

Deno.test("CidrSet merges nested, overlapping and adjacent ranges", () => {
  const set = CidrSet.from(["10.0.0.0/8", "10.1.0.0/16", "10.1.2.0/24", "11.0.0.0/8", "12.0.0.0/9"]);
  equal(set.rangeCount, 1);
  ok(set.has("12.127.255.255"));
  ok(!set.has("12.128.0.0"));
});

Deno.test("CidrSet covers the whole space with /0", () => {
  const set = CidrSet.from(["0.0.0.0/0", "::/0"]);
  ok(set.has("255.255.255.255"));
  ok(set.has("0.0.0.0"));
  ok(set.has("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
  ok(set.has("::"));
});

Deno.test("CidrSet matches IPv6 prefixes", () => {
  const set = CidrSet.from(["2001:db8::/32", "2001:db8:1::/48", "fe80::/10", "2606:4700::1111", "::1/128"]);
  ok(set.has("2001:db8::1"));
  ok(set.has("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"));
  ok(!set.has("2001:db9::"));
  ok(!set.has("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff"));
  ok(set.has("febf::1"));
  ok(!set.has("fec0::1"));
  ok(set.has("2606:4700::1111"));
  ok(!set.has("2606:4700::1112"));
  ok(set.has("::1"));
  ok(!set.has("::2"));
  ok(!set.has("10.0.0.1"));
});

Deno.test("CidrSet treats IPv4-mapped IPv6 like IPv4", () => {
  const v4 = CidrSet.from(["10.0.0.0/8"]);
  ok(v4.has("::ffff:10.1.2.3"));
  ok(!v4.has("::ffff:11.1.2.3"));
  const mapped = CidrSet.from(["::ffff:192.168.0.0/112"]);
  ok(mapped.has("192.168.3.4"));
  ok(mapped.has("::ffff:192.168.3.4"));
  ok(!mapped.has("192.169.0.1"));
});

Deno.test("CidrSet empty and invalid input", () => {
  const empty = new CidrSetBuilder().build();
  ok(empty.isEmpty);
  ok(!empty.has("1.2.3.4"));
  ok(!empty.has("::1"));
  const builder = new CidrSetBuilder();
  equal(builder.add("10.0.0.0/33"), false);
  equal(builder.add("nope"), false);
  throws(() => CidrSet.from(["1.2.3.4/40"]), /Invalid CIDR prefix "1.2.3.4\/40"/);
});

Deno.test("CidrSet agrees with a linear scan on random data", () => {
  let seed = 42;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const prefixes: [number, number][] = [];
  const texts: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const bits = 8 + (rand() % 25);
    const addr = rand();
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    prefixes.push([(addr & mask) >>> 0, mask]);
    texts.push(`${addr >>> 24}.${(addr >>> 16) & 255}.${(addr >>> 8) & 255}.${addr & 255}/${bits}`);
  }
  const set = CidrSet.from(texts);
  for (let i = 0; i < 5000; i++) {
    const x = rand();
    const text = `${x >>> 24}.${(x >>> 16) & 255}.${(x >>> 8) & 255}.${x & 255}`;
    const linear = prefixes.some(([net, mask]) => ((x & mask) >>> 0) === net);
    equal(set.has(text), linear, text);
  }
});

Deno.test("CidrSet agrees with a linear scan on random IPv6 data", () => {
  let seed = 99;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  // Few distinct top words so prefixes nest and overlap.
  const word = (k: number) => (k === 0 ? 0x20010000 + (rand() % 4) : rand());
  const hex = (w: number[]) =>
    w.flatMap((x) => [(x >>> 16).toString(16), (x & 0xffff).toString(16)]).join(":");
  const prefixes: { net: number[]; bits: number }[] = [];
  for (let i = 0; i < 1000; i++) {
    const bits = 16 + (rand() % 100);
    const w = [0, 1, 2, 3].map(word);
    const net = w.map((x, k) => {
      const keep = bits - k * 32;
      return keep >= 32 ? x : keep <= 0 ? 0 : (x & (0xffffffff << (32 - keep))) >>> 0;
    });
    prefixes.push({ net, bits });
  }
  const set = CidrSet.from(prefixes.map((p) => `${hex(p.net)}/${p.bits}`));
  const inPrefix = (x: number[], p: { net: number[]; bits: number }) =>
    x.every((xw, k) => {
      const keep = p.bits - k * 32;
      const mask = keep >= 32 ? 0xffffffff : keep <= 0 ? 0 : (0xffffffff << (32 - keep)) >>> 0;
      return ((xw & mask) >>> 0) === p.net[k];
    });
  let hits = 0;
  for (let i = 0; i < 4000; i++) {
    // Half the probes start from a prefix so some of them hit.
    const base = i % 2 === 0 ? prefixes[rand() % prefixes.length].net : [0, 1, 2, 3].map(word);
    const x = base.map((w, k) => (k === 3 ? (w + (rand() % 3)) >>> 0 : w));
    const linear = prefixes.some((p) => inPrefix(x, p));
    if (linear) hits++;
    equal(set.has(hex(x)), linear, hex(x));
  }
  ok(hits > 100);
});
