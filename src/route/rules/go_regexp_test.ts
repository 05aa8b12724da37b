import { equal, ok, throws } from "node:assert/strict";
import { compileGoRegexp } from "./go_regexp.ts";

const re = compileGoRegexp;

Deno.test("plain RE2 patterns behave as in Go", () => {
  ok(re("^(www\\.)?google\\.com$").test("www.google.com"));
  ok(!re("^(www\\.)?google\\.com$").test("wwwxgoogle.com"));
  ok(re("\\.cn$").test("baidu.cn"));
  ok(re("^[a-z0-9-]+\\.example\\.com$").test("a-1.example.com"));
  ok(re("^([a-z0-9-]+\\.)*example\\.com$").test("a.b.example.com"));
  ok(re("^[^.]+\\.test$").test("abc.test"));
  ok(re("a{2,3}").test("xaax"));
  ok(re("[]a]").test("]"));
  ok(re("[^]a]").test("b"));
  ok(re("a/b").test("a/b"));
});

Deno.test("Go-only syntax is translated", () => {
  ok(re("(?i)^EXAMPLE\\.com$").test("example.COM"));
  ok(re("\\Aexample\\z").test("example"));
  ok(!re("\\Aexample\\z").test("example.com"));
  equal(re("(?P<sub>[a-z]+)\\.test").exec("abc.test")?.groups?.sub, "abc");
  ok(re("\\Qa.b\\E$").test("a.b"));
  ok(!re("\\Qa.b\\E$").test("axb"));
  ok(re("^[[:alpha:]]+[[:digit:]]$").test("abc1"));
  ok(re("(?i:ab)c").test("ABc"));
  ok(re("(?s)a.b").test("a\nb"));
});

Deno.test("what Go refuses or JS cannot do the Go way is refused", () => {
  throws(() => re("(a)\\1"), /backreferences/);
  throws(() => re("a(?=b)"), /lookaround/);
  throws(() => re("(?<!a)b"), /lookaround/);
  throws(() => re("\\pL"), /Unicode/);
  throws(() => re("a(?i)b"), /only supported at the start/);
  throws(() => re("(?U)a+"), /flag "U"/);
  throws(() => re("a{1001}"), /over 1000/);
  throws(() => re("(a"), /missing closing \)/);
  throws(() => re("a)"), /unexpected \)/);
  throws(() => re("[a"), /missing closing \]/);
  throws(() => re("*a"), /missing argument/);
  throws(() => re("[[:nope:]]"), /unknown character class/);
});

Deno.test("nested unbounded repetition that could explode is refused", () => {
  for (
    const bad of [
      "(a+)+",
      "(a*)*",
      "(.*)*x",
      "(.+\\.)*example\\.com",
      "((a+))+",
      "(a+|b)+",
      "(x.*y)+",
      "(\\S+)*$",
    ]
  ) {
    throws(() => re(bad), /catastrophically/, bad);
  }
  // Delimited repetition is linear enough and common in domain rules.
  for (const good of ["([a-z]+\\.)+com", "(a|b)+", "(ab+c)*", "(.*\\.)?example\\.com", "(a+)?b", "(a+){2}"]) {
    re(good);
  }
});
