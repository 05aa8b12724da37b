/**
 * Random and mutated Surge profiles: the checker returns errors or a model, never throws, never
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
/** Beside the corpus, so includes resolve (including a profile including itself). */
const FILE = new URL("fuzz.conf", dir).pathname;
const corpus = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".conf"))
  .map((e) => Deno.readTextFileSync(new URL(e.name, dir)));
const TOKENS = [
  "=",
  ",",
  "[",
  "]",
  "[Proxy]\n",
  "[Rule]\n",
  "#!include basic.conf\n",
  "#!include ",
  "policy-path=",
  "section-name=x",
  '"',
  "(",
  ")",
  "AND,((",
  "NOT,(",
  "FINAL",
  "99999",
  "-1",
  "//",
  ";",
  "\n",
  "ss",
  "wireguard",
  "include-all-proxies=1",
  "policy-regex-filter=(",
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

Deno.test("surge fuzz: mutated corpus files give clean results", () => {
  const r = rng(0x5e26);
  for (let i = 0; i < 600; i++) {
    const text = mutate(corpus[i % corpus.length], r);
    const started = performance.now();
    const result = checkConfig(text, { file: FILE });
    assert(performance.now() - started < 2000, `slow input #${i}`);
    for (const e of result.errors) {
      assert(!e.detail.startsWith("internal error"), `#${i}: ${e.detail}\n${text}`);
    }
    assert(result.errors.length > 0 || result.model, `#${i}: neither errors nor a model`);
  }
});

Deno.test("surge fuzz: hostile shapes are errors, not crashes", () => {
  const hostile = [
    "[Proxy]\n#!include fuzz_self.conf\n",
    "[Rule]\n" + "AND,(".repeat(2000) + "\n",
    "[Rule]\nDOMAIN," + "a,".repeat(5000) + "DIRECT\n",
    "[Proxy]\nx = " + "ss, ".repeat(3000) + "\n",
    "[Proxy]\nw = wireguard, section-name=w\n[WireGuard w]\npeer = " + "(".repeat(500) + "\n",
    "[General]\n" + "dns-server = " + "1.1.1.1, ".repeat(500) + "\n",
    "=\n[\n]\n[ ]\n#!\n#!include\n",
    "[Proxy Group]\ng = select, g\n",
    "\u0000\uFEFF[General]\r\nloglevel = info\r",
  ];
  Deno.writeTextFileSync(new URL("fuzz_self.conf", dir), "[Proxy]\n#!include fuzz_self.conf\n");
  try {
    for (const text of hostile) {
      const started = performance.now();
      const result = checkConfig(text, { file: FILE });
      assert(performance.now() - started < 2000, `slow: ${text.slice(0, 60)}`);
      for (const e of result.errors) {
        assert(!e.detail.startsWith("internal error"), `${text.slice(0, 80)}: ${e.detail}`);
      }
    }
  } finally {
    Deno.removeSync(new URL("fuzz_self.conf", dir));
  }
});
