import assert from "node:assert/strict";
import { type CacheKey, DnsCache, MIN_CAPACITY, STALE_TTL } from "./cache.ts";
import { buildQuery, buildResponse, cacheTtl, decodeMessage, RCODE } from "./message.ts";

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const key = (name = "example.com", server = "a", subnet = ""): CacheKey => ({
  server,
  name,
  type: 1,
  class: 1,
  subnet,
});

function answer(name = "example.com", ttl = 60, rcode: number = RCODE.NOERROR): Uint8Array {
  const q = buildQuery(name, "A");
  return buildResponse(q, rcode, { answers: [{ name, type: "A", ttl, data: "1.2.3.4" }] });
}

Deno.test("cache: hit counts TTL down, then expires", () => {
  const c = clock();
  const cache = new DnsCache({ now: c.now });
  assert.ok(cache.put(key(), answer()));
  c.advance(20_500);
  const hit = cache.get(key("EXAMPLE.com"))!;
  assert.equal(hit.refresh, false);
  assert.equal(cacheTtl(hit.response), 40);
  c.advance(39_500);
  assert.equal(cache.get(key()), undefined);
  assert.equal(cache.size, 0);
});

Deno.test("cache: keys apart by server, subnet and type", () => {
  const c = clock();
  const cache = new DnsCache({ now: c.now });
  cache.put(key(), answer());
  assert.equal(cache.get(key("example.com", "b")), undefined);
  assert.equal(cache.get(key("example.com", "a", "1.2.3.0/24")), undefined);
  assert.equal(cache.get({ ...key(), type: 28 }), undefined);
  assert.ok(cache.get(key()));
});

Deno.test("cache: not kept: SERVFAIL, zero TTL, no TTL", () => {
  const cache = new DnsCache({ now: clock().now });
  assert.equal(cache.put(key(), answer("example.com", 60, RCODE.SERVFAIL)), false);
  assert.equal(cache.put(key(), answer("example.com", 0)), false);
  assert.equal(cache.put(key(), buildResponse(buildQuery("example.com", "A"), RCODE.NOERROR)), false);
});

Deno.test("cache: LRU drops the least recently used beyond capacity", () => {
  const cache = new DnsCache({ now: clock().now, capacity: 10 });
  for (let i = 0; i < MIN_CAPACITY; i++) cache.put(key(`n${i}.test`), answer(`n${i}.test`));
  assert.ok(cache.get(key("n0.test")), "touch n0");
  cache.put(key("extra.test"), answer("extra.test"));
  assert.equal(cache.size, MIN_CAPACITY);
  assert.ok(cache.get(key("n0.test")));
  assert.equal(cache.get(key("n1.test")), undefined);
});

Deno.test("cache: disable_expire keeps answers however old", () => {
  const c = clock();
  const cache = new DnsCache({ now: c.now, disableExpire: true });
  cache.put(key(), answer());
  c.advance(86_400_000);
  const hit = cache.get(key())!;
  assert.equal(hit.refresh, false);
  assert.equal(cacheTtl(hit.response), 1);
});

Deno.test("cache: optimistic serves expired answers within the window and asks for a refresh", () => {
  const c = clock();
  const cache = new DnsCache({ now: c.now, optimistic: { enabled: true, timeout: 3_600_000 } });
  cache.put(key(), answer());
  c.advance(61_000);
  assert.equal(cache.get(key(), { optimistic: false }), undefined, "turned off for this call");
  const hit = cache.get(key())!;
  assert.equal(hit.refresh, true);
  assert.equal(decodeMessage(hit.response).answers![0].ttl, STALE_TTL);
  c.advance(3_600_000);
  assert.equal(cache.get(key()), undefined);
  assert.equal(cache.size, 0);
});
