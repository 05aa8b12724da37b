import assert from "node:assert/strict";
import { ConfigError, DnsError, UnsupportedError } from "../common/errors.ts";
import { DnsClient } from "./client.ts";
import {
  answerAddresses,
  buildQuery,
  cacheTtl,
  clientSubnetOf,
  decodeMessage,
  messageId,
  rcodeOf,
} from "./message.ts";
import { dnsModel, FakeClock, FakeTransport, fixed, flush, meta } from "./test_util.ts";

function client(dns: Record<string, unknown>, transports: FakeTransport[], clock = new FakeClock()) {
  return new DnsClient({ dns: dnsModel(dns), transports, clock, randomId: () => 7 });
}

Deno.test("route: first matching rule, final, first server when final is unset", async () => {
  const a = fixed("a", ["1.1.1.1"]), b = fixed("b", ["2.2.2.2"]);
  const c = client({ rules: [{ domain_suffix: "cn", server: "b" }] }, [a, b]);
  assert.deepEqual(await c.lookup("x.cn", "ipv4_only"), ["2.2.2.2"]);
  assert.deepEqual(await c.lookup("x.com", "ipv4_only"), ["1.1.1.1"]);
  const c2 = client({ final: "b" }, [fixed("a", []), fixed("b", ["3.3.3.3"])]);
  assert.deepEqual(await c2.lookup("x.com", "ipv4_only"), ["3.3.3.3"]);
});

Deno.test("exchange keeps the client's id and matches inbound and query_type", async () => {
  const a = fixed("a", ["1.1.1.1"]), b = fixed("b", ["2.2.2.2", "::2"]);
  const c = client({ rules: [{ inbound: "tun-in", query_type: ["AAAA"], server: "b" }] }, [a, b]);
  const r = await c.exchange(buildQuery("x.com", "AAAA", 0x4242), meta({ inbound: "tun-in" }));
  assert.equal(messageId(r), 0x4242);
  assert.deepEqual(answerAddresses(r), ["::2"]);
  assert.equal(messageId(b.calls[0].query), 7, "upstream gets a fresh id");
  await c.exchange(buildQuery("x.com", "A"), meta({ inbound: "tun-in" }));
  assert.equal(a.calls.length, 1);
});

Deno.test("reject, predefined and route-options rewrite_ttl", async () => {
  const a = fixed("a", ["1.1.1.1"]);
  const c = client({
    rules: [
      { domain: "ads.test", action: "reject" },
      { domain: "local.test", action: "predefined", answer: ["*.test. IN A 10.0.0.1"] },
      { action: "route-options", rewrite_ttl: 5 },
    ],
  }, [a]);
  assert.equal(rcodeOf(await c.exchange(buildQuery("ads.test", "A"))), 5);
  const p = await c.exchange(buildQuery("local.test", "A"));
  assert.deepEqual(answerAddresses(p), ["10.0.0.1"]);
  assert.equal(decodeMessage(p).answers![0].name, "local.test");
  assert.equal(cacheTtl(await c.exchange(buildQuery("x.test", "A"))), 5);
  assert.equal(a.calls.length, 1);
});

Deno.test("cache per server, disable_cache rule, and timeouts on the injected clock", async () => {
  const clock = new FakeClock();
  const a = fixed("a", ["1.1.1.1"]);
  const slow = new FakeTransport("slow");
  const c = client(
    {
      timeout: "2s",
      rules: [{ domain: "nocache.test", server: "a", disable_cache: true }, {
        domain: "slow.test",
        server: "slow",
      }],
    },
    [a, slow],
    clock,
  );
  await c.exchange(buildQuery("x.test", "A"));
  await c.exchange(buildQuery("X.test", "A"));
  assert.equal(a.calls.length, 1);
  clock.advance(61_000);
  await c.exchange(buildQuery("x.test", "A"));
  assert.equal(a.calls.length, 2, "expired");
  await c.exchange(buildQuery("nocache.test", "A"));
  await c.exchange(buildQuery("nocache.test", "A"));
  assert.equal(a.calls.length, 4);
  const pending = c.exchange(buildQuery("slow.test", "A"));
  await flush();
  clock.advance(2_000);
  await assert.rejects(pending, (e) => e instanceof DnsError && /timed out/.test(e.message));
  assert.ok(slow.calls[0].signal.aborted);
});

Deno.test("optimistic cache serves expired answers and refreshes in the background", async () => {
  const clock = new FakeClock();
  const a = fixed("a", ["1.1.1.1"]);
  const c = client({ optimistic: true }, [a], clock);
  await c.exchange(buildQuery("x.test", "A"));
  clock.advance(120_000);
  const r = await c.exchange(buildQuery("x.test", "A"));
  assert.equal(cacheTtl(r), 1);
  await flush();
  assert.equal(a.calls.length, 2, "refreshed");
  assert.equal(cacheTtl(await c.exchange(buildQuery("x.test", "A"))), 60);
});

Deno.test("strategy for lookups, client_strategy for clients", async () => {
  const a = fixed("a", ["1.1.1.1", "::1"]);
  const c = client({ client_strategy: "ipv4_only" }, [a]);
  assert.deepEqual(await c.lookup("x.test"), ["1.1.1.1", "::1"]);
  assert.deepEqual(await c.lookup("x.test", "prefer_ipv6"), ["::1", "1.1.1.1"]);
  assert.deepEqual(await c.lookup("y.test", "ipv6_only"), ["::1"]);
  const before = a.calls.length;
  const r = await c.exchange(buildQuery("z.test", "AAAA"));
  assert.equal(rcodeOf(r), 0);
  assert.deepEqual(answerAddresses(r), []);
  assert.equal(a.calls.length, before, "not asked");
  const c2 = client({
    strategy: "ipv6_only",
    rules: [{ domain: "v4.test", server: "a", strategy: "ipv4_only" }],
  }, [a]);
  assert.deepEqual(answerAddresses(await c2.exchange(buildQuery("x.test", "A"))), []);
  assert.deepEqual(answerAddresses(await c2.exchange(buildQuery("v4.test", "A"))), ["1.1.1.1"]);
  await assert.rejects(client({}, [fixed("e", [])]).lookup("none.test"), DnsError);
});

Deno.test("client subnet: dns default, rule replaces, rule removes", async () => {
  const a = fixed("a", ["1.1.1.1"]);
  const c = client({
    client_subnet: "1.2.3.4",
    disable_cache: true,
    rules: [{ domain: "r.test", server: "a", client_subnet: "10.0.0.0/8" }, {
      domain: "n.test",
      server: "a",
      remove_client_subnet: true,
    }],
  }, [a]);
  for (const n of ["x.test", "r.test", "n.test"]) await c.exchange(buildQuery(n, "A"));
  assert.deepEqual(a.calls.map((q) => clientSubnetOf(decodeMessage(q.query))), [
    "1.2.3.4/32",
    "10.0.0.0/8",
    "",
  ]);
});

Deno.test("config errors: unknown server, unsupported condition, missing evaluate tag", () => {
  const a = fixed("a", []);
  assert.throws(() => client({ final: "zz" }, [a]), ConfigError);
  assert.throws(
    () => client({ rules: [{ server: "zz" }] }, [a]),
    (e) => e instanceof ConfigError && e.path === "/dns/rules/0/server",
  );
  assert.throws(() => client({ rules: [{ process_name: "curl", server: "a" }] }, [a]), UnsupportedError);
  assert.throws(() => client({ rules: [{ match_response: "nope", action: "respond" }] }, [a]), ConfigError);
  assert.throws(
    () => client({ rules: [{ ip_cidr: "10.0.0.0/8", server: "a" }] }, [a]),
    /needs "match_response"/,
  );
  assert.throws(() => client({ rules: [{ action: "evaluate", server: "a" }] }, [a]), /needs "tag"/);
});

Deno.test("exchangeCached: a cached answer the rules lead to, synchronously; else undefined", async () => {
  const a = fixed("a", ["1.1.1.1"]), b = fixed("b", ["2.2.2.2"]);
  const c = client({
    rules: [
      { domain: "ads.test", action: "reject" },
      { domain_suffix: "cn", server: "b", rewrite_ttl: 9 },
      { domain: "nocache.test", server: "a", disable_cache: true },
    ],
  }, [a, b]);
  assert.equal(c.exchangeCached(buildQuery("x.cn", "A", 1)), undefined, "nothing cached yet");
  await c.exchange(buildQuery("x.cn", "A", 1));
  await c.exchange(buildQuery("x.com", "A", 1));
  await c.exchange(buildQuery("nocache.test", "A", 1));
  const hit = c.exchangeCached(buildQuery("x.cn", "A", 0x1234))!;
  assert.equal(messageId(hit), 0x1234);
  assert.deepEqual(answerAddresses(hit), ["2.2.2.2"]);
  assert.equal(cacheTtl(hit), 9, "the rule's rewrite_ttl applies");
  assert.deepEqual(answerAddresses(c.exchangeCached(buildQuery("x.com", "A"))!), ["1.1.1.1"]);
  assert.equal(c.exchangeCached(buildQuery("x.com", "AAAA")), undefined, "another type is not cached");
  assert.equal(c.exchangeCached(buildQuery("nocache.test", "A")), undefined, "disable_cache");
  assert.equal(c.exchangeCached(buildQuery("ads.test", "A")), undefined, "non-route actions go async");
  assert.equal(b.calls.length, 1);
  // A rule that needs a response on the way: always the async walk.
  const e = client({
    rules: [{ domain: "x.com", action: "evaluate", server: "a", tag: "e" }, {
      match_response: true,
      server: "a",
    }],
  }, [fixed("a", ["1.1.1.1"])]);
  await e.exchange(buildQuery("x.com", "A"));
  assert.equal(e.exchangeCached(buildQuery("x.com", "A")), undefined);
});
