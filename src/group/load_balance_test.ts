import assert from "node:assert/strict";
import { LoadBalanceOutbound } from "../config/model/group.ts";
import { destinationKey, LoadBalanceGroup, rendezvous } from "./load_balance.ts";
import { md, testOptions, via, world } from "./fakes_test_util.ts";

const model = (o: Record<string, unknown>) =>
  LoadBalanceOutbound.parse({ type: "load-balance", tag: "lb", ...testOptions, ...o });
const TAGS = ["a", "b", "c", "d"];

Deno.test("load-balance round-robin: each connection the next member, skipping members that are down", async () => {
  const w = world(TAGS);
  const g = new LoadBalanceGroup(model({ outbounds: TAGS, strategy: "round-robin" }), w.env);
  const seen = [];
  for (let i = 0; i < 8; i++) seen.push(await via(g));
  assert.deepEqual(seen, ["a", "b", "c", "d", "a", "b", "c", "d"]);
  w.health.markDown("b", new Error("down"));
  const after = new Set<string>();
  for (let i = 0; i < 6; i++) after.add(await via(g));
  assert.deepEqual([...after].sort(), ["a", "c", "d"]);
  await g.close();
});

Deno.test("load-balance consistent-hashing: by registrable domain, stable when other members go down", async () => {
  const w = world(TAGS);
  const g = new LoadBalanceGroup(model({ outbounds: TAGS }), w.env);
  assert.equal(g.strategy, "consistent-hashing");
  assert.equal(destinationKey(md("a.b.example.co.uk")), "example.co.uk");
  assert.equal(destinationKey(md("10.1.2.3")), "10.1.2.3");
  const www = await via(g, "www.example.com");
  assert.equal(await via(g, "img.cdn.example.com"), www);
  assert.equal(await via(g, "example.com"), www);
  // Spread: 200 domains land on every member.
  const where = new Map<string, string>();
  for (let i = 0; i < 200; i++) where.set(`site${i}.org`, await via(g, `x.site${i}.org`));
  assert.deepEqual(new Set(where.values()).size, 4);
  // One member goes down: only its domains move.
  w.health.markDown("c", new Error("down"));
  let moved = 0;
  for (const [site, before] of where) {
    const now = await via(g, `x.${site}`);
    if (before === "c") assert.notEqual(now, "c");
    else assert.equal(now, before, `${site} moved though its member is up`);
    if (now !== before) moved++;
  }
  assert.equal(moved, [...where.values()].filter((t) => t === "c").length);
  assert.equal(rendezvous("k", ["x"]), "x");
  await g.close();
});

Deno.test("load-balance sticky-sessions: by source and destination, re-picked when down, expiring", async () => {
  const w = world(TAGS);
  const g = new LoadBalanceGroup(model({ outbounds: TAGS, strategy: "sticky-sessions" }), w.env);
  const bySource = new Map<string, string>();
  for (let i = 0; i < 40; i++) bySource.set(`10.0.0.${i}`, await via(g, "api.example.com", `10.0.0.${i}`));
  assert.ok(new Set(bySource.values()).size > 1, "different sources spread over members");
  for (const [src, tag] of bySource) assert.equal(await via(g, "www.example.com", src), tag);
  assert.equal(g.stickySessions, 40);
  const [src, tag] = [...bySource][0];
  w.health.markDown(tag, new Error("down"));
  const moved = await via(g, "api.example.com", src);
  assert.notEqual(moved, tag);
  // Back up: the session stays where it moved until it expires.
  const probe = w.health.check(w.members.get(tag)!, "http://x/", 1000);
  await w.clock.advance(200);
  await probe;
  assert.equal(w.health.isDown(tag), false);
  assert.equal(await via(g, "api.example.com", src), moved);
  await w.clock.advance(11 * 60_000);
  assert.equal(await via(g, "api.example.com", src), tag, "expired: the hash picks again");
  await g.close();
});
