import assert from "node:assert/strict";
import { generateSecret, isStrongSecret } from "./secret.ts";

Deno.test("generate secret: strong, random, distinct", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const s = generateSecret();
    assert.ok(s.length >= 32);
    assert.ok(new Set(s).size >= 10);
    assert.match(s, /^[A-Za-z0-9_-]+$/);
    seen.add(s);
  }
  assert.equal(seen.size, 200);
  assert.equal(isStrongSecret("a".repeat(40)), false);
  assert.equal(isStrongSecret("abcdefghij"), false);
});
