import { equal, ok, throws } from "node:assert/strict";
import { DomainSet, KeywordMatcher, normalizeDomain } from "./domain_set.ts";

Deno.test("normalizeDomain lowercases and drops one trailing dot", () => {
  equal(normalizeDomain("WWW.Example.COM."), "www.example.com");
  equal(normalizeDomain("example.com"), "example.com");
  equal(normalizeDomain(""), "");
});

Deno.test("domain matches exact names only", () => {
  const set = new DomainSet({ domain: ["example.com"] });
  ok(set.has("example.com"));
  ok(set.has("EXAMPLE.com."));
  ok(!set.has("www.example.com"));
  ok(!set.has("xexample.com"));
});

Deno.test("domain_suffix without a dot matches the name and its subdomains (sing domain.NewMatcher)", () => {
  const set = new DomainSet({ suffix: ["example.com"] });
  ok(set.has("example.com"));
  ok(set.has("www.example.com"));
  ok(set.has("a.b.example.com"));
  ok(!set.has("badexample.com"));
  ok(!set.has("example.com.cn"));
  ok(!set.has("com"));
});

Deno.test("domain_suffix with a leading dot matches subdomains only", () => {
  const set = new DomainSet({ suffix: [".example.com"] });
  ok(!set.has("example.com"));
  ok(set.has("www.example.com"));
  ok(set.has("WWW.EXAMPLE.COM."));
  ok(!set.has("badexample.com"));
});

Deno.test("domain_suffix items are normalised too", () => {
  const set = new DomainSet({ suffix: ["Example.COM.", "org"] });
  ok(set.has("www.example.com"));
  ok(set.has("example.org"));
  ok(set.has("org"));
});

Deno.test("domain_keyword matches substrings, few and many", () => {
  const few = new DomainSet({ keyword: ["goo", "Ads"] });
  ok(few.has("www.google.com"));
  ok(few.has("ads.example"));
  ok(!few.has("example.com"));
  const words = Array.from({ length: 50 }, (_, i) => `kw${i}x`);
  const many = new DomainSet({ keyword: [...words, "tracker"] });
  ok(many.has("a.kw17x.b"));
  ok(many.has("mytracker.net"));
  ok(!many.has("kw17.kw1.com"));
  ok(!many.has(""));
});

Deno.test("KeywordMatcher (Aho-Corasick) agrees with includes", () => {
  const keywords = ["he", "she", "his", "hers", "abcd", "bc", "c", "xyzzy", "zz", "aab"];
  // Pad past the plain limit so the automaton is used.
  const padded = [...keywords, "q1", "q2", "q3", "q4"];
  const ac = new KeywordMatcher(padded);
  const alphabet = "abcehirsxyz.";
  let seed = 7;
  for (let n = 0; n < 3000; n++) {
    let text = "";
    const len = (seed = (seed * 1103515245 + 12345) >>> 0) % 12;
    for (let i = 0; i < len; i++) {
      text += alphabet[(seed = (seed * 1103515245 + 12345) >>> 0) % alphabet.length];
    }
    equal(ac.test(text), padded.some((k) => text.includes(k)), text);
  }
  ok(new KeywordMatcher(["", "a", "b", "c", "d", "e", "f", "g", "h", "i"]).test("zzz"));
});

Deno.test("domain_regex tests the normalised name", () => {
  const set = new DomainSet({ regex: [/^ads?\d*\./] });
  ok(set.has("AD1.example.com"));
  ok(!set.has("bad.example.com"));
});

Deno.test("empty items are refused, empty sets match nothing", () => {
  throws(() => new DomainSet({ domain: [""] }), RangeError);
  throws(() => new DomainSet({ suffix: [""] }), RangeError);
  const empty = new DomainSet({});
  ok(empty.isEmpty);
  ok(!empty.has("example.com"));
  ok(!empty.has(""));
});
