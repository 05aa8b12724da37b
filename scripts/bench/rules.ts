/**
 * Route-rule matching benchmark (not a test). Run from the repository root:
 *
 *   ./scripts/deno run -A scripts/bench/rules.ts
 *
 * Builds one rule with 100k `domain_suffix` items and one with 100k `ip_cidr` items (90k IPv4,
 * 10k IPv6; random but deterministic), measures how long compileRule takes, then the latency of
 * `match` on hits and misses, next to a naive linear scan over the same items as the peer.
 * Latency is timed in batches of BATCH lookups (the timer costs ~0.3 µs, too much to time one
 * lookup alone); median and p99 are over the per-lookup averages of the batches.
 * Targets: load < 1 s, median < 2 µs. Exit code 1 on FAIL.
 */
import type { Metadata } from "../../src/adapter/metadata.ts";
import { domainOf } from "../../src/adapter/metadata.ts";
import { normalizeDomain } from "../../src/common/domain_set.ts";
import { type Cidr, parseCidr, parseIpInto } from "../../src/common/ip.ts";
import { compileRule, type RuleMatcher } from "../../src/route/rules/mod.ts";

const COUNT = 100_000;
const PROBES = 20_000;
const LINEAR_PROBES = 400;
const BATCH = 16;
const LOAD_TARGET_MS = 1000;
const MEDIAN_TARGET_US = 2;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = rng(20240601);
const int = (n: number) => Math.floor(rand() * n);
const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const label = (min: number, max: number) => {
  let s = ALNUM[int(26)];
  const len = min + int(max - min + 1);
  for (let i = 1; i < len; i++) s += ALNUM[int(36)];
  return s;
};
const TLDS = ["com", "net", "org", "io", "cn", "de", "co.uk", "jp", "ru", "app"];

// ---- data ----

const suffixSet = new Set<string>();
while (suffixSet.size < COUNT) {
  const base = (int(4) === 0 ? label(2, 8) + "." : "") + label(3, 12) + "." + TLDS[int(TLDS.length)];
  suffixSet.add(int(10) === 0 ? "." + base : base);
}
const suffixes = [...suffixSet];

const v4Text = (v: number) => `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
const hex16 = (n: number) => n.toString(16);
/** First octets the IPv4 prefixes avoid, so misses can be drawn from them. */
const MISS_OCTET_LO = 100, MISS_OCTET_HI = 126;
const cidrs: string[] = [];
for (let i = 0; i < COUNT * 0.9; i++) {
  let first = 1 + int(222);
  if (first >= MISS_OCTET_LO && first <= MISS_OCTET_HI) first += 27;
  const bits = 12 + int(21); // /12 .. /32
  const addr = ((first << 24) | int(1 << 24)) >>> 0;
  cidrs.push(`${v4Text(addr)}/${bits}`);
}
for (let i = 0; i < COUNT * 0.1; i++) {
  const groups = [0x2001 + int(0x300), int(65536), int(65536), int(65536), 0, 0, 0, 0];
  const bits = 24 + int(41); // /24 .. /64
  cidrs.push(`${groups.map(hex16).join(":")}/${bits}`);
}

function meta(host: string): Metadata {
  return {
    inbound: "in",
    inboundType: "mixed",
    network: "tcp",
    source: { host: "192.168.1.2", port: 50000 },
    destination: { host, port: 443 },
  };
}

const domainHits: Metadata[] = [];
const domainMisses: Metadata[] = [];
for (let i = 0; i < PROBES; i++) {
  const s = suffixes[int(COUNT)];
  const base = s.startsWith(".") ? s.slice(1) : s;
  const prefix = s.startsWith(".") || int(2) === 0
    ? ["www.", "api.", "a.b.", "cdn." + label(2, 6) + "."][int(4)]
    : "";
  domainHits.push(meta(prefix + base));
  domainMisses.push(meta(`${label(2, 6)}.${label(3, 12)}.${["example", "invalid", "test"][int(3)]}`));
}

const ipHits: Metadata[] = [];
const ipMisses: Metadata[] = [];
for (let i = 0; i < PROBES; i++) {
  const c = parseCidr(cidrs[int(cidrs.length)])!;
  const w = c.address.words;
  if (c.address.version === 4) {
    const host = c.bits === 32 ? 0 : int(2 ** (32 - c.bits));
    ipHits.push(meta(v4Text(w[0] + host)));
  } else {
    const words = [...w];
    words[3] = int(2 ** 32); // /64 or shorter: the last word is host bits
    ipHits.push(meta(words.flatMap((x) => [hex16(x >>> 16), hex16(x & 0xffff)]).join(":")));
  }
  if (i % 10 === 0) {
    ipMisses.push(meta(`3fff:${hex16(int(65536))}::${hex16(int(65536))}`));
  } else {
    const first = MISS_OCTET_LO + int(MISS_OCTET_HI - MISS_OCTET_LO + 1);
    ipMisses.push(meta(v4Text(((first << 24) | int(1 << 24)) >>> 0)));
  }
}

// ---- linear peers ----

function linearSuffix(items: string[]): (m: Metadata) => boolean {
  const exact = items.map((s) => (s.startsWith(".") ? undefined : normalizeDomain(s)));
  const dotted = items.map((s) => normalizeDomain(s.startsWith(".") ? s : "." + s));
  return (m) => {
    const d = domainOf(m);
    if (!d) return false;
    const name = normalizeDomain(d);
    for (let i = 0; i < dotted.length; i++) {
      if (name === exact[i] || name.endsWith(dotted[i])) return true;
    }
    return false;
  };
}

function linearCidr(items: string[]): (m: Metadata) => boolean {
  const parsed: Cidr[] = items.map((t) => parseCidr(t)!);
  const w = new Uint32Array(4);
  return (m) => {
    const v = parseIpInto(m.destination.host, w);
    if (v === 0) return false;
    for (const c of parsed) {
      if (c.address.version !== v) continue;
      let inside = true;
      for (let k = 0; k < c.address.words.length && inside; k++) {
        const keep = c.bits - k * 32;
        const mask = keep >= 32 ? 0xffffffff : keep <= 0 ? 0 : (0xffffffff << (32 - keep)) >>> 0;
        inside = ((w[k] & mask) >>> 0) === c.address.words[k];
      }
      if (inside) return true;
    }
    return false;
  };
}

// ---- measurement ----

interface Stats {
  median: number;
  p99: number;
}

/** Per-lookup latency in µs, from batches of BATCH lookups; checks every result. */
function measure(match: (m: Metadata) => boolean, probes: Metadata[], expect: boolean, limit: number): Stats {
  const n = Math.min(limit, probes.length);
  for (let i = 0; i < Math.min(n, 2000); i++) match(probes[i]); // warm up
  const samples: number[] = [];
  let wrong = 0;
  for (let start = 0; start + BATCH <= n; start += BATCH) {
    const t0 = performance.now();
    for (let i = start; i < start + BATCH; i++) if (match(probes[i]) !== expect) wrong++;
    samples.push(((performance.now() - t0) * 1000) / BATCH);
  }
  if (wrong > 0) throw new Error(`${wrong} lookups returned ${!expect}, expected ${expect}`);
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p99: samples[Math.floor(samples.length * 0.99)] };
}

function timeLoad(build: () => RuleMatcher): [RuleMatcher, number] {
  const t0 = performance.now();
  const m = build();
  return [m, performance.now() - t0];
}

const fmt = (us: number) => (us < 10 ? us.toFixed(3) : us.toFixed(1)).padStart(9);
let failed = false;
const verdict = (ok: boolean) => {
  if (!ok) failed = true;
  return ok ? "PASS" : "FAIL";
};

console.log(`Deno ${Deno.version.deno}, V8 ${Deno.version.v8}; ${COUNT} items per rule, batches of ${BATCH}`);

const [domainRule, domainLoad] = timeLoad(() => compileRule({ domain_suffix: suffixes }));
const [cidrRule, cidrLoad] = timeLoad(() => compileRule({ ip_cidr: cidrs }));
const domainLinear = linearSuffix(suffixes);
const cidrLinear = linearCidr(cidrs);

console.log(
  `\nload  domain_suffix x${COUNT}: ${domainLoad.toFixed(0)} ms  (target < ${LOAD_TARGET_MS} ms)  ${
    verdict(domainLoad < LOAD_TARGET_MS)
  }`,
);
console.log(
  `load  ip_cidr       x${COUNT}: ${cidrLoad.toFixed(0)} ms  (target < ${LOAD_TARGET_MS} ms)  ${
    verdict(cidrLoad < LOAD_TARGET_MS)
  }`,
);

console.log(
  `\n${"case".padEnd(22)}${"median µs".padStart(10)}${"p99 µs".padStart(10)}${"linear med".padStart(12)}${
    "linear p99".padStart(12)
  }${"speedup".padStart(10)}  verdict`,
);
const cases: [string, RuleMatcher, (m: Metadata) => boolean, Metadata[], boolean][] = [
  ["domain_suffix hit", domainRule, domainLinear, domainHits, true],
  ["domain_suffix miss", domainRule, domainLinear, domainMisses, false],
  ["ip_cidr hit", cidrRule, cidrLinear, ipHits, true],
  ["ip_cidr miss", cidrRule, cidrLinear, ipMisses, false],
];
for (const [name, rule, linear, probes, expect] of cases) {
  const ours = measure((m) => rule.match(m), probes, expect, PROBES);
  const peer = measure(linear, probes, expect, LINEAR_PROBES);
  console.log(
    `${name.padEnd(22)}${fmt(ours.median)} ${fmt(ours.p99)}  ${fmt(peer.median)}   ${fmt(peer.p99)}  ${
      (peer.median / ours.median).toFixed(0).padStart(7)
    }x  ${verdict(ours.median < MEDIAN_TARGET_US)}`,
  );
}

console.log(
  `\n${failed ? "FAIL" : "PASS"}: load < ${LOAD_TARGET_MS} ms and median match < ${MEDIAN_TARGET_US} µs`,
);
if (failed) Deno.exitCode = 1;
