import assert from "node:assert/strict";
import { DnsError } from "../../common/errors.ts";
import type { DnsTransport } from "../transport.ts";
import { RCODE, rcodeOf } from "./packet.ts";
import { RaceTransport } from "./race.ts";
import { SequentialTransport } from "./sequential.ts";
import { addresses, answer, query } from "./testing.ts";

function fake(tag: string, behave: (q: Uint8Array, signal: AbortSignal) => Promise<Uint8Array>) {
  const calls: string[] = [];
  const t: DnsTransport & { calls: string[] } = {
    tag,
    type: "fake",
    calls,
    exchange: (q, s) => {
      calls.push(tag);
      return behave(q, s);
    },
    close: () => {},
  };
  return t;
}

const after = (ms: number, f: () => Uint8Array, signal: AbortSignal) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => resolve(f()), ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DnsError("aborted"));
    });
  });

function servfail(q: Uint8Array): Uint8Array {
  const r = answer(q, []);
  r[3] = (r[3] & 0xf0) | RCODE.SERVFAIL;
  return r;
}

Deno.test("race: the first good answer wins and the others are aborted", async () => {
  let aborted = false;
  const slow = fake("slow", (q, s) => {
    s.addEventListener("abort", () => (aborted = true));
    return after(500, () => answer(q, ["10.0.0.2"]), s);
  });
  const bad = fake("bad", (q) => Promise.resolve(servfail(q)));
  const fast = fake("fast", (q, s) => after(10, () => answer(q, ["10.0.0.1"]), s));
  const all = [slow, bad, fast];
  const race = new RaceTransport("r", ["slow", "bad", "fast"], (t) => all.find((x) => x.tag === t));
  assert.deepEqual(addresses(await race.exchange(query("a.lan"), AbortSignal.timeout(2000))), ["10.0.0.1"]);
  assert.ok(aborted);
});

Deno.test("race: all failing is a DnsError naming each; a bad answer is the fallback", async () => {
  const e1 = fake("e1", () => Promise.reject(new DnsError("boom")));
  const e2 = fake("e2", () => Promise.reject(new DnsError("bang")));
  const bad = fake("bad", (q) => Promise.resolve(servfail(q)));
  const all = [e1, e2, bad];
  const get = (t: string) => all.find((x) => x.tag === t);
  await assert.rejects(
    new RaceTransport("r", ["e1", "e2"], get).exchange(query("a.lan"), AbortSignal.timeout(1000)),
    /boom.*bang|bang.*boom/,
  );
  const r = await new RaceTransport("r", ["e1", "bad"], get).exchange(
    query("a.lan"),
    AbortSignal.timeout(1000),
  );
  assert.equal(rcodeOf(r), RCODE.SERVFAIL);
  await assert.rejects(
    new RaceTransport("r", ["missing"], get).exchange(query("a.lan"), AbortSignal.timeout(1000)),
    DnsError,
  );
});

Deno.test("sequential: asks in order until a good answer", async () => {
  const e1 = fake("e1", () => Promise.reject(new DnsError("boom")));
  const bad = fake("bad", (q) => Promise.resolve(servfail(q)));
  const ok = fake("ok", (q) => Promise.resolve(answer(q, ["10.0.0.7"])));
  const never = fake("never", (q) => Promise.resolve(answer(q, ["10.0.0.8"])));
  const all = [e1, bad, ok, never];
  const seq = new SequentialTransport("s", ["e1", "bad", "ok", "never"], (t) => all.find((x) => x.tag === t));
  assert.deepEqual(addresses(await seq.exchange(query("a.lan"), AbortSignal.timeout(1000))), ["10.0.0.7"]);
  assert.equal(never.calls.length, 0);
});

Deno.test("sequential: a timeout stops at the signal", async () => {
  const hang = fake("hang", (q, s) => after(10_000, () => answer(q, []), s));
  const seq = new SequentialTransport("s", ["hang", "hang"], () => hang);
  await assert.rejects(
    seq.exchange(query("a.lan"), AbortSignal.timeout(100)),
    (e) => e instanceof DnsError && /timed out/.test(e.message),
  );
  assert.equal(hang.calls.length, 1);
});
