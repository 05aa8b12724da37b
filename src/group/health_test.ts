import assert from "node:assert/strict";
import { DialError } from "../common/errors.ts";
import { FakeClock, settle } from "./clock.ts";
import { HealthChecks } from "./health.ts";
import { FakeMember } from "./fakes_test_util.ts";

Deno.test("health: a member in test is not tested twice at once; history keeps the last ten", async () => {
  const clock = new FakeClock();
  let calls = 0;
  const resolvers: ((n: number) => void)[] = [];
  const h = new HealthChecks(() => {
    calls++;
    return new Promise<number>((r) => resolvers.push(r));
  }, clock);
  const a = new FakeMember("a");
  const p1 = h.check(a, "http://x/", 1000);
  const p2 = h.check(a, "http://other/", 1000);
  assert.equal(calls, 1);
  resolvers[0](42);
  assert.deepEqual(await p1, await p2);
  assert.equal((await p1).delay, 42);
  for (let i = 0; i < 12; i++) {
    const p = h.check(a, "http://x/", 1000);
    resolvers[resolvers.length - 1](i + 1);
    await p;
  }
  assert.equal(calls, 13);
  assert.equal(h.history("a").length, 10);
  assert.equal(h.last("a")?.delay, 12);
  h.markDown("a", new DialError("refused"));
  assert.equal(h.isDown("a"), true);
  assert.equal(h.last("a")?.error, "refused");
  assert.equal(h.isDown("never-tested"), false);
});

Deno.test("health: one timer for all tasks, jittered intervals, cancel stops a task", async () => {
  const clock = new FakeClock();
  const h = new HealthChecks(() => Promise.resolve(1), clock);
  const runs: [string, number][] = [];
  clock.randomValue = 1; // the longest jitter: +10 %
  const t1 = h.every(1000, () => Promise.resolve(void runs.push(["one", clock.now()])));
  h.every(2000, () => Promise.resolve(void runs.push(["two", clock.now()])));
  await settle();
  assert.deepEqual(runs, [["one", 0], ["two", 0]]);
  assert.equal(clock.pending, 1, "one timer for every task");
  await clock.advance(1099);
  assert.equal(runs.length, 2);
  await clock.advance(1);
  assert.deepEqual(runs.at(-1), ["one", 1100]);
  await clock.advance(1100);
  assert.deepEqual(runs.slice(3), [["one", 2200], ["two", 2200]]);
  t1.cancel();
  const before = runs.length;
  await clock.advance(2200);
  assert.deepEqual(runs.slice(before).map((r) => r[0]), ["two"]);
  assert.equal(h.tasks, 1);
  h.close();
  assert.equal(clock.pending, 0);
});

Deno.test("health: a task still running is not started again when its time comes", async () => {
  const clock = new FakeClock();
  const h = new HealthChecks(() => Promise.resolve(1), clock);
  let started = 0;
  let finish!: () => void;
  h.every(100, () => {
    started++;
    return new Promise<void>((r) => (finish = r));
  });
  await clock.advance(1000);
  assert.equal(started, 1);
  finish();
  await settle();
  await clock.advance(110);
  assert.equal(started, 2);
  h.close();
});
