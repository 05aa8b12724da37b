/**
 * Fuzzes the JSONC loader with a seeded PRNG: random bytes, random JSON values, and mutations of
 * valid configurations. `checkConfig` must always return (never throw, never hang, never hit an
 * internal error) and every error must carry a path string.
 */
import { ok as assert } from "node:assert/strict";
import { ConfigError } from "../../src/common/errors.ts";
import { checkConfig, DEFAULT_CONFIG_TEXT } from "../../src/config/mod.ts";

/** mulberry32: small, fast, deterministic. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)];

const KEYS = [
  "type",
  "tag",
  "listen",
  "listen_port",
  "udp_timeout",
  "users",
  "username",
  "password",
  "server",
  "server_port",
  "detour",
  "domain_resolver",
  "routing_mark",
  "rules",
  "rule_set",
  "final",
  "outbound",
  "action",
  "domain",
  "port",
  "mode",
  "invert",
  "servers",
  "dns",
  "route",
  "inbounds",
  "outbounds",
  "log",
  "level",
  "timeout",
  "sniffer",
  "method",
  "strategy",
  "optimistic",
  "cache_capacity",
  "experimental",
  "clash_api",
  "compat_api",
  "user_limits",
  "quota_bytes",
  "api",
  "secret",
  "endpoints",
  "services",
  "format",
  "url",
  "path",
  "tls",
  "netns",
  "sniff",
  "address",
  "__proto__",
  "constructor",
  "",
  "logical",
  "and",
];
const STRINGS = [
  "mixed",
  "socks",
  "http",
  "direct",
  "block",
  "vmess",
  "tun",
  "logical",
  "default",
  "route",
  "reject",
  "sniff",
  "resolve",
  "hijack-dns",
  "udp",
  "https",
  "race",
  "5m",
  "0s",
  "-1s",
  "300ms",
  "1h30m",
  "127.0.0.1",
  "0x10",
  "direct",
  "proxy",
  "local",
  "(",
  "a.srs",
  "x.json",
  "",
  "at_sniff",
  "info",
  "\u0000",
  "🙂",
];

function randomValue(r: Rand, depth: number): unknown {
  const k = r();
  if (depth <= 0 || k < 0.35) {
    const s = r();
    if (s < 0.3) return pick(r, STRINGS);
    if (s < 0.5) return Math.floor(r() * 70000) - 100;
    if (s < 0.6) return r() * 10;
    if (s < 0.75) return r() < 0.5;
    if (s < 0.8) return null;
    return "x".repeat(Math.floor(r() * 5));
  }
  if (k < 0.6) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth - 1));
  const obj: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) obj[pick(r, KEYS)] = randomValue(r, depth - 1);
  return obj;
}

const CORPUS: unknown[] = [
  JSON.parse(DEFAULT_CONFIG_TEXT),
  {
    log: { level: "debug" },
    dns: {
      servers: [{ type: "https", tag: "r", server: "1.1.1.1" }, { type: "local", tag: "l" }, {
        type: "race",
        tag: "x",
        servers: ["r", "l"],
      }],
      rules: [{ domain: "a", server: "l" }, { action: "evaluate", server: "r", tag: "e" }, {
        match_response: "e",
        action: "respond",
      }],
      optimistic: { enabled: true, timeout: "1d" },
    },
    inbounds: [{ type: "socks", tag: "s", listen_port: 1080, users: [{ username: "a", password: "b" }] }, {
      type: "direct",
      tag: "d",
      network: "udp",
      override_port: 53,
    }],
    outbounds: [
      { type: "socks", tag: "p", server: "a", server_port: 1, detour: "d", domain_resolver: { server: "l" } },
      { type: "http", tag: "h", server: "b", server_port: 2, headers: { A: "b" } },
      { type: "direct", tag: "d" },
    ],
    route: {
      rules: [
        { action: "sniff", timeout: "1s" },
        { type: "logical", mode: "or", rules: [{ port: 53 }, { protocol: "dns" }], action: "hijack-dns" },
        { rule_set: "rs", outbound: "p" },
      ],
      rule_set: [{ type: "inline", tag: "rs", rules: [{ domain_suffix: ".cn" }] }],
      final: "d",
    },
    experimental: { cache_file: { enabled: true }, clash_api: { external_controller: "127.0.0.1:9090" } },
    user_limits: { a: { quota_bytes: 100, expire_at: "2030-01-01T00:00:00Z" } },
    outbound_providers: [{ type: "inline", tag: "pv", outbounds: [{ type: "direct", tag: "x" }] }],
  },
];

/** Containers of a JSON value, for picking a place to mutate. */
function containers(v: unknown, out: (Record<string, unknown> | unknown[])[] = []) {
  if (v !== null && typeof v === "object") {
    out.push(v as Record<string, unknown>);
    for (const c of Object.values(v)) containers(c, out);
  }
  return out;
}

function mutate(r: Rand, doc: unknown): string {
  const copy = structuredClone(doc);
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) {
    const target = pick(r, containers(copy));
    const keys = Object.keys(target);
    const op = r();
    if (Array.isArray(target)) {
      if (op < 0.3 && target.length) target.splice(Math.floor(r() * target.length), 1);
      else if (op < 0.6 && target.length) target.push(structuredClone(pick(r, target)));
      else target[Math.floor(r() * (target.length + 1))] = randomValue(r, 2);
    } else if (keys.length) {
      const key = pick(r, keys);
      if (op < 0.25) delete target[key];
      else if (op < 0.5) target[key] = randomValue(r, 2);
      else if (op < 0.7) target[key + pick(r, ["", "s", "_", "x"])] = structuredClone(target[key]);
      else if (op < 0.85) target[pick(r, KEYS)] = structuredClone(target[key]);
      else target[key] = pick(r, STRINGS);
    }
  }
  let text = JSON.stringify(copy, null, r() < 0.5 ? 2 : 0);
  const t = r();
  if (t < 0.1) text = text.slice(0, Math.floor(r() * text.length));
  else if (t < 0.15) {
    const at = Math.floor(r() * text.length);
    text = text.slice(0, at) + pick(r, ["//", "/*", ",", "}", "]", '"', "\n", "\\"]) + text.slice(at);
  }
  return text;
}

function check(text: string, what: string): void {
  const started = performance.now();
  let result;
  try {
    result = checkConfig(text);
  } catch (e) {
    throw new Error(`${what}: checkConfig threw ${e}\n${text.slice(0, 500)}`);
  }
  const elapsed = performance.now() - started;
  assert(elapsed < 2000, `${what}: took ${elapsed} ms`);
  for (const e of result.errors) {
    assert(e instanceof ConfigError, `${what}: not a ConfigError`);
    assert(typeof e.path === "string", `${what}: path is not a string`);
    assert(!e.detail.startsWith("internal error"), `${what}: ${e.detail}\n${text.slice(0, 500)}`);
  }
  for (const w of result.warnings) assert(typeof w.path === "string" && typeof w.message === "string");
  assert(result.errors.length > 0 || result.model !== undefined, `${what}: neither errors nor a model`);
}

Deno.test("fuzz: random bytes", () => {
  const r = prng(1);
  const decoder = new TextDecoder();
  for (let i = 0; i < 1000; i++) {
    const bytes = Uint8Array.from({ length: Math.floor(r() * 200) }, () => Math.floor(r() * 256));
    if (r() < 0.5) bytes[0] = 0x7b; // "{" gets the parser further
    check(decoder.decode(bytes), `bytes #${i}`);
  }
});

Deno.test("fuzz: random JSON values", () => {
  const r = prng(2);
  for (let i = 0; i < 1500; i++) {
    const v = r() < 0.8
      ? { [pick(r, KEYS)]: randomValue(r, 5), [pick(r, KEYS)]: randomValue(r, 5) }
      : randomValue(r, 5);
    check(JSON.stringify(v), `value #${i}`);
  }
});

Deno.test("fuzz: mutations of valid configurations", () => {
  const r = prng(3);
  for (const doc of CORPUS) {
    const r = checkConfig(JSON.stringify(doc));
    assert(r.model, `corpus must be valid: ${r.errors.map((e) => e.message).join("; ")}`);
  }
  for (let i = 0; i < 2500; i++) check(mutate(r, pick(r, CORPUS)), `mutation #${i}`);
});
