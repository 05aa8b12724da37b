import assert from "node:assert/strict";
import { FallbackOutbound, SelectorOutbound } from "../config/model/group.ts";
import { FallbackGroup } from "./fallback.ts";
import { SelectorGroup } from "./selector.ts";
import { testOptions, via, world } from "./fakes_test_util.ts";

const model = (o: Record<string, unknown>) =>
  FallbackOutbound.parse({ type: "fallback", tag: "fb", ...testOptions, ...o });

Deno.test("fallback: first member in order whose last test succeeded", async () => {
  const w = world(["a", "b", "c"]);
  w.members.get("a")!.up = false;
  w.members.get("b")!.delay = 500; // slow but up: order wins, not speed
  const g = new FallbackGroup(model({ outbounds: ["a", "b", "c"] }), w.env);
  const round = g.testAll();
  await w.clock.advance(1000);
  await round;
  assert.equal(g.now(), "b");
  assert.equal(await via(g), "b");
  assert.equal(w.members.get("a")!.dials, 0, "a member that failed its test is skipped");
  // a comes back: the next test restores it.
  w.members.get("a")!.up = true;
  await w.clock.advance(70_000);
  assert.equal(g.now(), "a");
  await g.close();
});

Deno.test("fallback: a failed dial marks the member down and tries the next", async () => {
  const w = world(["a", "b", "c"]);
  const g = new FallbackGroup(model({ outbounds: ["a", "b", "c"] }), w.env);
  w.members.get("a")!.up = false;
  w.members.get("b")!.up = false;
  assert.equal(await via(g), "c");
  assert.deepEqual([w.health.isDown("a"), w.health.isDown("b")], [true, true]);
  assert.equal(await via(g), "c");
  assert.equal(w.members.get("a")!.dials, 1, "a down member is not dialled again before a test");
  w.members.get("c")!.up = false;
  await assert.rejects(() => via(g), /c is down/);
  // All down: the first member still gets tried.
  await assert.rejects(() => via(g), /a is down/);
  await g.close();
});

Deno.test("fallback: members may be groups", async () => {
  const w = world(["a", "b"]);
  const inner = new SelectorGroup(
    SelectorOutbound.parse({ type: "selector", tag: "inner", outbounds: ["a", "b"], default: "b" }),
    w.env,
  );
  const outer = new FallbackGroup(model({ outbounds: ["inner", "a"] }), {
    ...w.env,
    outbound: (t) => (t === "inner" ? inner : w.env.outbound(t)),
  });
  assert.equal(await via(outer), "b");
  w.members.get("b")!.up = false;
  assert.equal(await via(outer), "a");
  assert.equal(w.health.isDown("inner"), true);
  await outer.close();
});

Deno.test("fallback: a member that failed only for one destination comes back after its re-test", async () => {
  const w = world(["a", "b"]);
  const g = new FallbackGroup(model({ outbounds: ["a", "b"] }), w.env);
  w.members.get("a")!.refuse.add("dead.example");
  assert.equal(await via(g, "dead.example"), "b");
  assert.equal(g.now(), "b");
  await w.clock.advance(100); // a's immediate re-test answers
  assert.equal(w.health.isDown("a"), false);
  assert.equal(g.now(), "a");
  assert.equal(await via(g), "a");
  await g.close();
});
