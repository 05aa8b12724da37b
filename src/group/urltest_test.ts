import assert from "node:assert/strict";
import { UrlTestOutbound } from "../config/model/group.ts";
import { settle } from "./clock.ts";
import { testOptions, via, world } from "./fakes_test_util.ts";
import { UrlTestGroup } from "./urltest.ts";

const model = (o: Record<string, unknown>) =>
  UrlTestOutbound.parse({ type: "urltest", tag: "auto", ...testOptions, ...o });

Deno.test("urltest: tested on first use, then picks the lowest delay", async () => {
  const w = world(["a", "b", "c"]);
  w.members.get("a")!.delay = 300;
  w.members.get("b")!.delay = 80;
  w.members.get("c")!.delay = 200;
  const g = new UrlTestGroup(model({ outbounds: ["a", "b", "c"] }), w.env);
  await g.start();
  await settle();
  assert.equal(w.probes.size, 0, "lazy: nothing is tested before first use");
  // Before results the first member carries the connection.
  assert.equal(await via(g), "a");
  assert.equal(w.inflight(), 3);
  await w.clock.advance(300);
  assert.equal(g.now(), "b");
  assert.equal(await via(g), "b");
  assert.equal(w.health.last("b")?.delay, 80);
  await g.close();
});

Deno.test("urltest: switches only when the new best beats the current by the tolerance", async () => {
  const w = world(["a", "b"]);
  const [a, b] = [w.members.get("a")!, w.members.get("b")!];
  a.delay = 100;
  b.delay = 200;
  const g = new UrlTestGroup(model({ outbounds: ["a", "b"], tolerance: 50 }), w.env);
  await via(g);
  await w.clock.advance(200);
  assert.equal(g.now(), "a");
  b.delay = 60; // better, but by less than 50 ms
  await w.clock.advance(66_000);
  assert.equal(w.health.last("b")?.delay, 60);
  assert.equal(g.now(), "a");
  b.delay = 40; // now beats 100 by 60 ms
  await via(g);
  await w.clock.advance(66_000);
  assert.equal(g.now(), "b");
  // The current member failing its test switches at once, whatever the tolerance.
  a.delay = 10;
  b.up = false;
  await w.clock.advance(66_000);
  assert.equal(w.health.isDown("b"), true);
  assert.equal(g.now(), "a");
  await g.close();
});

Deno.test("urltest: testing stops after idle_timeout and resumes on the next use; lazy false always tests", async () => {
  const w = world(["a", "b"]);
  const g = new UrlTestGroup(model({ outbounds: ["a", "b"], interval: "1m", idle_timeout: "3m" }), w.env);
  await via(g);
  await w.clock.advance(10 * 60_000);
  const idleCount = w.probes.get("a")!;
  assert.ok(idleCount >= 3 && idleCount <= 5, `tests while in use: ${idleCount}`);
  assert.equal(g.testing, false);
  await w.clock.advance(30 * 60_000);
  assert.equal(w.probes.get("a"), idleCount, "no tests while idle");
  await via(g);
  await settle();
  assert.equal(w.probes.get("a"), idleCount + 1, "tested again at once on use");
  await g.close();

  const eager = world(["a"]);
  const e = new UrlTestGroup(model({ outbounds: ["a"], interval: "1m", lazy: false }), eager.env);
  await e.start();
  await eager.clock.advance(60 * 60_000);
  assert.ok(eager.probes.get("a")! >= 50, `lazy false keeps testing: ${eager.probes.get("a")}`);
  await e.close();
  assert.equal(eager.health.tasks, 0);
});
