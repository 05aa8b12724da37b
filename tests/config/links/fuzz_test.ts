/**
 * Fuzzes the importer with a seeded PRNG: random text, mutated corpus links (flipped, cut,
 * inserted, duplicated characters), mutated base64, Clash YAML and sing-box JSON bodies.
 * `importShareLinks` must always return, never report an internal error, give every problem a
 * line inside the text, and return JSON-serialisable outbounds with unique tags. Each input must
 * finish well under a second (a hang guard, not a speed measurement).
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { importShareLinks, parseShareLink } from "../../../src/config/links/mod.ts";
import { LinkError } from "../../../src/config/links/types.ts";

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
const int = (r: Rand, n: number) => Math.floor(r() * n);

const corpusDir = new URL("./corpus/", import.meta.url);
const bodies = [...Deno.readDirSync(corpusDir)].map((e) => Deno.readTextFileSync(new URL(e.name, corpusDir)));
const links = bodies.flatMap((b) => b.split("\n")).filter((l) => /^[a-z0-9]+:\/\//.test(l));
const ALPHABET = ":/@?#&=%[],.;+-_ \n\r\t{}\"'ABCxyz019\u00e9\u{1F1EF}\0";

function mutate(r: Rand, s: string, rounds = 1 + int(r, 4)): string {
  let t = s;
  for (let i = 0; i < rounds; i++) {
    const at = int(r, t.length + 1);
    switch (int(r, 6)) {
      case 0: // flip a character
        t = t.slice(0, at) + ALPHABET[int(r, ALPHABET.length)] + t.slice(at + 1);
        break;
      case 1: // truncate
        t = t.slice(0, at);
        break;
      case 2: // insert
        t = t.slice(0, at) + ALPHABET[int(r, ALPHABET.length)].repeat(1 + int(r, 3)) + t.slice(at);
        break;
      case 3: // delete a span
        t = t.slice(0, at) + t.slice(at + 1 + int(r, 8));
        break;
      case 4: // duplicate a span
        t = t.slice(0, at) + t.slice(at, at + int(r, 40)) + t.slice(at);
        break;
      default: // splice with another link
        t = t.slice(0, at) + links[int(r, links.length)].slice(int(r, 30));
    }
  }
  return t;
}

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

function randomText(r: Rand): string {
  const n = int(r, 200);
  let s = "";
  for (let i = 0; i < n; i++) {
    s += r() < 0.8 ? ALPHABET[int(r, ALPHABET.length)] : String.fromCharCode(int(r, 0x3000));
  }
  return s;
}

function check(body: string): void {
  const started = performance.now();
  const r = importShareLinks(body);
  const ms = performance.now() - started;
  ok(ms < 1000, `took ${ms} ms on ${JSON.stringify(body.slice(0, 200))}`);
  const lines = body.split(/\r\n|\r|\n/).length;
  for (const p of r.problems) {
    ok(!p.message.includes("internal error"), `${p.message} on ${JSON.stringify(body.slice(0, 300))}`);
    ok(Number.isInteger(p.line) && p.line >= 1, `line ${p.line}`);
    // A base64 body's lines are those of the decoded text, which may have more lines.
    if (r.format !== "base64") ok(p.line <= lines, `line ${p.line} of ${lines}`);
  }
  const all = [...r.outbounds, ...r.endpoints];
  for (const o of all) ok(typeof o.type === "string" && typeof o.tag === "string" && o.tag !== "");
  ok(new Set(all.map((o) => o.tag)).size === all.length, "unique tags");
  JSON.stringify(r);
}

Deno.test("fuzz: single links throw only LinkError", () => {
  const r = prng(1);
  for (let i = 0; i < 4000; i++) {
    const link = mutate(r, links[int(r, links.length)]);
    try {
      parseShareLink(link);
    } catch (e) {
      ok(e instanceof LinkError, `${(e as Error)?.stack} on ${JSON.stringify(link)}`);
    }
  }
});

Deno.test("fuzz: link lists and random text", () => {
  const r = prng(2);
  for (let i = 0; i < 300; i++) {
    const n = 1 + int(r, 8);
    const list = Array.from(
      { length: n },
      () => (r() < 0.2 ? randomText(r) : mutate(r, links[int(r, links.length)])),
    );
    check(list.join(r() < 0.5 ? "\n" : "\r\n"));
    check(randomText(r));
  }
});

Deno.test("fuzz: base64 bodies, mutated before or after encoding", () => {
  const r = prng(3);
  for (let i = 0; i < 300; i++) {
    const list = Array.from(
      { length: 1 + int(r, 5) },
      () => mutate(r, links[int(r, links.length)], int(r, 3)),
    );
    const encoded = b64(list.join("\n"));
    check(r() < 0.5 ? encoded : mutate(r, encoded));
    check(encoded.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
  }
});

Deno.test("fuzz: Clash YAML and sing-box JSON documents", () => {
  const r = prng(4);
  const docs = bodies.filter((b) => /^proxies:/m.test(b) || b.trimStart().startsWith("{"));
  ok(docs.length >= 2);
  for (let i = 0; i < 250; i++) check(mutate(r, docs[int(r, docs.length)], 1 + int(r, 6)));
  // Alias bombs and deep nesting stay bounded.
  check(
    `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nproxies:\n  - {name: n, type: direct, x: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]}\n`,
  );
  const bomb = importShareLinks(
    `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nproxies:\n  - {name: n, type: direct, x: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]}\n`,
  );
  deepStrictEqual(bomb.problems, [{ line: 4, message: 'proxy "n": YAML aliases expand too much' }]);
  check(`proxies:\n  - ${"[".repeat(5000)}`);
  check(`{"outbounds": ${"[".repeat(5000)}`);
});
