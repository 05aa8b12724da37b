import assert from "node:assert/strict";
import { DnsError } from "../../common/errors.ts";
import { checkResponse, encodeMessage, firstQuestion, messageId, validateMessage, withId } from "./packet.ts";
import { answer, query } from "./testing.ts";

Deno.test("checkResponse accepts a matching answer", () => {
  const q = query("a.test.lan");
  checkResponse(q, answer(q, ["127.0.0.1"]));
});

Deno.test("checkResponse rejects a wrong id, a query, another question and short bytes", () => {
  const q = query("a.test.lan");
  assert.throws(() => checkResponse(q, withId(answer(q, []), 7)), DnsError);
  assert.throws(() => checkResponse(q, q), DnsError);
  const other = query("b.test.lan", "A", messageId(q));
  assert.throws(() => checkResponse(q, answer(other, [])), DnsError);
  assert.throws(() => checkResponse(q, new Uint8Array(5)), DnsError);
});

Deno.test("checkResponse compares names case-insensitively", () => {
  const q = query("A.Test.LAN");
  checkResponse(q, answer(query("a.test.lan", "A", messageId(q)), ["127.0.0.1"]));
});

Deno.test("validateMessage rejects a record running past the end and pointer loops", () => {
  const r = answer(query("a.test.lan"), ["127.0.0.1"]);
  assert.throws(() => validateMessage(r.subarray(0, r.length - 1)), DnsError);
  // A question whose name points at itself.
  const loop = new Uint8Array([0, 1, 0x81, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
  assert.throws(() => firstQuestion(loop), DnsError);
});

Deno.test("fuzz: random and mutated responses throw nothing but DnsError", () => {
  const q = query("a.test.lan", "AAAA");
  const good = encodeMessage({
    id: messageId(q),
    type: "response",
    questions: [{ name: "a.test.lan", type: "AAAA" }],
    answers: [
      { name: "a.test.lan", type: "CNAME", ttl: 5, data: "b.test.lan" },
      { name: "b.test.lan", type: "AAAA", ttl: 5, data: "::1" },
      { name: "b.test.lan", type: "TXT", ttl: 5, data: ["x".repeat(40)] },
    ],
  });
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  let accepted = 0;
  for (let i = 0; i < 20000; i++) {
    let b: Uint8Array;
    if (i % 4 === 0) {
      b = new Uint8Array(rand(80));
      for (let j = 0; j < b.length; j++) b[j] = rand(256);
      if (b.length >= 2) b.set(q.subarray(0, 2));
    } else {
      b = good.slice(0, i % 7 === 0 ? rand(good.length + 1) : good.length);
      for (let k = rand(4) + 1; k > 0; k--) if (b.length) b[rand(b.length)] = rand(256);
    }
    try {
      checkResponse(q, b);
      accepted++;
    } catch (e) {
      if (!(e instanceof DnsError)) throw new Error(`Non-DnsError for ${Array.from(b)}: ${e}`);
    }
  }
  assert.ok(accepted > 0);
});
