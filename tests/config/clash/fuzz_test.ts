/**
 * Random and mutated Clash files: the checker returns errors or a model, never throws, never
 * reports an internal error, and finishes quickly (a hang guard, not a speed test).
 */
import { ok as assert } from "node:assert/strict";
import { checkConfig } from "../../../src/config/mod.ts";

/** Small deterministic PRNG so a failure can be replayed from its seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const dir = new URL("./golden/", import.meta.url);
const corpus = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".yaml"))
  .map((e) => Deno.readTextFileSync(new URL(e.name, dir)));
const TOKENS = [
  ":",
  "- ",
  "{",
  "}",
  "[",
  "]",
  ",",
  "&a ",
  "*a",
  "<<: *a\n",
  "\n  ",
  "'",
  '"',
  "#",
  "|\n",
  "~",
  "null",
  "-1",
  "99999",
  "(",
  ")",
  "AND,((",
  "MATCH",
  "ss",
  "type: relay",
  "\t",
];

function mutate(text: string, r: () => number): string {
  let t = text;
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * (t.length + 1));
    const op = Math.floor(r() * 4);
    if (op === 0) t = t.slice(0, at) + TOKENS[Math.floor(r() * TOKENS.length)] + t.slice(at);
    else if (op === 1) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 20));
    else if (op === 2) {
      const lines = t.split("\n");
      const a = Math.floor(r() * lines.length), b = Math.floor(r() * lines.length);
      [lines[a], lines[b]] = [lines[b], lines[a]];
      t = lines.join("\n");
    } else t = t.slice(0, at) + String.fromCharCode(Math.floor(r() * 128)) + t.slice(at);
  }
  return t;
}

Deno.test("clash fuzz: mutated corpus files give clean results", () => {
  const r = rng(0xc1a5);
  for (let i = 0; i < 600; i++) {
    const text = mutate(corpus[i % corpus.length], r);
    const started = performance.now();
    const result = checkConfig(text, { file: "fuzz.yaml" });
    assert(performance.now() - started < 2000, `slow input #${i}`);
    for (const e of result.errors) {
      assert(!e.detail.startsWith("internal error"), `#${i}: ${e.detail}\n${text}`);
    }
    assert(result.errors.length > 0 || result.model, `#${i}: neither errors nor a model`);
  }
});

Deno.test("clash fuzz: hostile shapes are errors, not crashes", () => {
  const hostile = [
    "proxies: 5",
    "proxies: [1, 2, [3]]",
    "proxy-groups: {a: b}",
    "rules: {a: 1}",
    "rules: [[1]]",
    "dns: [1]",
    "dns: {enable: true, nameserver: {a: 1}}",
    "hosts: [1]",
    "proxy-providers: [1]",
    "rule-providers: {r: 5}",
    'sub-rules: {a: 1}\nrules: ["SUB-RULE,(NETWORK,TCP),a"]',
    "a: &a [*a]",
    `a: &a ["x","x","x","x","x","x","x","x"]\n` +
    Array.from(
      { length: 8 },
      (_, i) => `b${i}: &b${i} [${(i ? `*b${i - 1},` : "*a,").repeat(8).slice(0, -1)}]`,
    ).join("\n"),
    "rules:\n" + "  - " + "AND,(".repeat(2000) + "\n",
    "mixed-port: 1\nrules: ['" + "DOMAIN,a,DIRECT,".repeat(1000) + "']",
  ];
  for (const text of hostile) {
    const result = checkConfig(text, { file: "x.yaml" });
    for (const e of result.errors) {
      assert(!e.detail.startsWith("internal error"), `${text.slice(0, 80)}: ${e.detail}`);
    }
  }
});
