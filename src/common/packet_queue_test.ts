import assert from "node:assert/strict";
import { PacketQueue } from "./packet_queue.ts";

Deno.test("packet queue: waits for items, drops past capacity, drains then ends when closed", async () => {
  const q = new PacketQueue<number>(2);
  const first = q.shift();
  assert.equal(q.push(1), true);
  assert.equal(await first, 1);
  assert.equal(q.push(2), true);
  assert.equal(q.push(3), true);
  assert.equal(q.push(4), false, "full: dropped");
  q.close();
  assert.equal(q.push(5), false, "closed: dropped");
  assert.equal(await q.shift(), 2);
  assert.equal(await q.shift(), 3);
  assert.equal(await q.shift(), null);
});
