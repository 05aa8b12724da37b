import assert from "node:assert/strict";
import { DnsClient } from "./client.ts";
import { answerAddresses, buildQuery, rcodeOf } from "./message.ts";
import { dnsModel, FakeClock, FakeTransport, fixed, flush } from "./test_util.ts";

function client(dns: Record<string, unknown>, transports: FakeTransport[]) {
  return new DnsClient({
    dns: dnsModel({ disable_cache: true, ...dns }),
    transports,
    clock: new FakeClock(),
  });
}

const ask = (c: DnsClient, name = "x.test") => c.exchange(buildQuery(name, "A"));

Deno.test("evaluate + match_response: respond when it matches, else go on", async () => {
  const a = fixed("a", ["10.0.0.1"]), b = fixed("b", ["8.8.8.8"]);
  const c = client({
    final: "b",
    rules: [
      { action: "evaluate", server: "a", tag: "ev" },
      { match_response: "ev", ip_cidr: "10.0.0.0/8", action: "respond" },
    ],
  }, [a, b]);
  assert.deepEqual(answerAddresses(await ask(c)), ["10.0.0.1"]);
  assert.equal(b.calls.length, 0);
  const a2 = fixed("a", ["1.2.3.4"]);
  const c2 = client({
    final: "b",
    rules: [{ action: "evaluate", server: "a", tag: "ev" }, {
      match_response: "ev",
      ip_is_private: true,
      action: "respond",
    }],
  }, [a2, b]);
  assert.deepEqual(answerAddresses(await ask(c2)), ["8.8.8.8"]);
});

Deno.test("response conditions: rcode, records, ip_accept_any, ip_match_all, invert without a response", async () => {
  const a = new FakeTransport(
    "a",
    (q) => q.answer(q.name === "nx.test" ? [] : ["10.0.0.1", "1.1.1.1"], q.name === "nx.test" ? 3 : 0),
  );
  const b = fixed("b", ["9.9.9.9"]);
  const c = client({
    final: "b",
    rules: [
      { action: "evaluate", server: "a", tag: "ev" },
      { match_response: "ev", response_rcode: "NXDOMAIN", action: "predefined", rcode: "REFUSED" },
      { match_response: true, ip_cidr: "10.0.0.0/8", ip_match_all: true, action: "reject" },
      { match_response: "ev", response_answer: "m.test. IN A 1.1.1.1", action: "respond" },
      { match_response: "ev", ip_accept_any: true, action: "respond" },
    ],
  }, [a, b]);
  assert.equal(rcodeOf(await ask(c, "nx.test")), 5);
  assert.deepEqual(answerAddresses(await ask(c, "m.test")), ["10.0.0.1", "1.1.1.1"]);
  const c2 = client({ final: "b", rules: [{ match_response: true, invert: true, action: "reject" }] }, [
    a,
    b,
  ]);
  assert.equal(rcodeOf(await ask(c2)), 5, "no response: matches only inverted");
});

function raceSetup() {
  const a = new FakeTransport("a"), b = new FakeTransport("b"), c = new FakeTransport("c");
  const dns = client({
    final: "c",
    rules: [
      { action: "evaluate", server: "a", tag: "A" },
      { action: "evaluate", server: "b", tag: "B" },
      { match_response: "A", ip_accept_any: true, action: "respond", race: true },
      { match_response: "B", ip_accept_any: true, action: "respond", race: true },
    ],
  }, [a, b, c]);
  return { a, b, c, dns };
}

Deno.test("race: the first race rule to match decides, whatever its place", async () => {
  const { a, b, c, dns } = raceSetup();
  const r = ask(dns);
  await flush();
  assert.equal(a.calls.length, 1);
  assert.equal(b.calls.length, 1, "both evaluates are in flight at once");
  b.calls[0].answer(["2.2.2.2"]);
  assert.deepEqual(answerAddresses(await r), ["2.2.2.2"]);
  assert.equal(c.calls.length, 0);
  assert.ok(a.calls[0].signal.aborted, "the loser is cancelled");
});

Deno.test("race: a non-matching race rule gives way to the next; final waits for all", async () => {
  const { a, b, c, dns } = raceSetup();
  const r = ask(dns);
  await flush();
  b.calls[0].answer([]);
  await flush();
  assert.equal(c.calls.length, 0, "final waits while A is pending");
  a.calls[0].answer(["1.1.1.1"]);
  assert.deepEqual(answerAddresses(await r), ["1.1.1.1"]);

  const s = raceSetup();
  const r2 = ask(s.dns);
  await flush();
  s.a.calls[0].answer([]);
  s.b.calls[0].answer([]);
  await flush();
  assert.equal(s.c.calls.length, 1, "no race rule matched: final asked");
  s.c.calls[0].answer(["3.3.3.3"]);
  assert.deepEqual(answerAddresses(await r2), ["3.3.3.3"]);
});

function speculativeSetup(speculative: boolean) {
  const a = new FakeTransport("a"), c = new FakeTransport("c");
  const dns = client({
    final: "a",
    rules: [
      { action: "evaluate", server: "a", tag: "A" },
      { match_response: "A", ip_is_private: true, action: "respond", race: true },
      { action: "route", server: "c", speculative },
    ],
  }, [a, c]);
  return { a, c, dns };
}

Deno.test("speculative: sent at once, used only when no earlier race rule matched", async () => {
  const s = speculativeSetup(true);
  const r = ask(s.dns);
  await flush();
  assert.equal(s.c.calls.length, 1, "sent while the race rule is pending");
  s.c.calls[0].answer(["3.3.3.3"]);
  await flush();
  s.a.calls[0].answer(["192.168.1.1"]);
  assert.deepEqual(
    answerAddresses(await r),
    ["192.168.1.1"],
    "race rule matched: speculative answer dropped",
  );

  const t = speculativeSetup(true);
  const r2 = ask(t.dns);
  await flush();
  t.a.calls[0].answer(["1.1.1.1"]);
  await flush();
  t.c.calls[0].answer(["3.3.3.3"]);
  assert.deepEqual(answerAddresses(await r2), ["3.3.3.3"]);
});

Deno.test("not speculative: the route waits for earlier race rules before asking", async () => {
  const s = speculativeSetup(false);
  const r = ask(s.dns);
  await flush();
  assert.equal(s.c.calls.length, 0);
  s.a.calls[0].answer(["1.1.1.1"]);
  await flush();
  assert.equal(s.c.calls.length, 1);
  s.c.calls[0].answer(["3.3.3.3"]);
  assert.deepEqual(answerAddresses(await r), ["3.3.3.3"]);
});

Deno.test("a non-race rule that reads a response waits for it; a race rule before it may decide first", async () => {
  const a = new FakeTransport("a"), b = new FakeTransport("b"), c = new FakeTransport("c");
  const dns = client({
    final: "c",
    rules: [
      { action: "evaluate", server: "a", tag: "A" },
      { action: "evaluate", server: "b", tag: "B" },
      { match_response: "B", ip_accept_any: true, action: "respond", race: true },
      { match_response: "A", ip_accept_any: true, action: "respond" },
    ],
  }, [a, b, c]);
  const r = ask(dns);
  await flush();
  b.calls[0].answer(["2.2.2.2"]);
  assert.deepEqual(answerAddresses(await r), ["2.2.2.2"]);
  const r2 = ask(dns);
  await flush();
  a.calls[1].answer(["1.1.1.1"]);
  await flush();
  b.calls[1].answer([]);
  assert.deepEqual(answerAddresses(await r2), ["1.1.1.1"]);
});

Deno.test("evaluate failures count as no response; reject as a race rule", async () => {
  const a = new FakeTransport("a", (q) => q.reject(new Error("boom")));
  const b = fixed("b", ["2.2.2.2"]);
  const dns = client({
    final: "b",
    rules: [
      { action: "evaluate", server: "a", tag: "A" },
      { match_response: "A", invert: true, action: "reject", race: true },
    ],
  }, [a, b]);
  assert.equal(rcodeOf(await ask(dns)), 5);
});

Deno.test("ip_match_all: every address must match; none matches nothing", async () => {
  const a = new FakeTransport(
    "a",
    (q) =>
      q.answer(
        q.name === "all.test"
          ? ["10.0.0.1", "10.0.0.2"]
          : q.name === "none.test"
          ? []
          : ["10.0.0.1", "1.1.1.1"],
      ),
  );
  const b = fixed("b", ["9.9.9.9"]);
  const dns = client({
    final: "b",
    rules: [
      { action: "evaluate", server: "a", tag: "A" },
      { match_response: "A", ip_cidr: "10.0.0.0/8", ip_match_all: true, action: "reject" },
    ],
  }, [a, b]);
  assert.equal(rcodeOf(await ask(dns, "all.test")), 5);
  assert.deepEqual(answerAddresses(await ask(dns, "some.test")), ["9.9.9.9"]);
  assert.deepEqual(answerAddresses(await ask(dns, "none.test")), ["9.9.9.9"]);
});
