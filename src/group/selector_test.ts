import assert from "node:assert/strict";
import { SelectorOutbound } from "../config/model/group.ts";
import { memberTags } from "./group.ts";
import { SelectorGroup } from "./selector.ts";
import { via, world } from "./fakes_test_util.ts";

const model = (o: Record<string, unknown>) => SelectorOutbound.parse({ type: "selector", tag: "sel", ...o });

Deno.test("selector: first member without default, then default, then select()", async () => {
  const w = world(["a", "b", "c"]);
  const first = new SelectorGroup(model({ outbounds: ["a", "b", "c"] }), w.env);
  assert.equal(first.now(), "a");
  assert.equal(await via(first), "a");
  const g = new SelectorGroup(model({ outbounds: ["a", "b", "c"], default: "b" }), w.env);
  assert.equal(await via(g), "b");
  g.select("c");
  assert.equal(g.now(), "c");
  assert.equal(await via(g), "c");
  assert.throws(() => g.select("zzz"), /Group "sel" has no member "zzz"/);
  assert.equal(g.now(), "c");
  assert.deepEqual(g.dependencies, ["a", "b", "c"]);
});

Deno.test("selector: a default that is not a member, and no members at all are refused", () => {
  const w = world(["a"]);
  assert.throws(
    () => new SelectorGroup(model({ outbounds: ["a"], default: "x" }), w.env),
    /"default" names "x", which is not one of the group's outbounds/,
  );
  assert.throws(() => new SelectorGroup(model({ outbounds: [] }), w.env), /"outbounds" is empty/);
  // With providers, `outbounds` may be empty: the members come from the providers.
  assert.equal(memberTags({ tag: "g", outbounds: [], providers: ["sub"] }).length, 0);
});

Deno.test("selector: a member missing at dial time fails with a DialError naming it", async () => {
  const w = world(["a"]);
  const g = new SelectorGroup(model({ outbounds: ["ghost"] }), w.env);
  await assert.rejects(() => via(g), /Group "sel": member "ghost" is not a built outbound/);
});
