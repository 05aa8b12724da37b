import assert from "node:assert/strict";
import { ReverseMap } from "./reverse_map.ts";

Deno.test("reverse map: remembers names of answered addresses, bounded", () => {
  const m = new ReverseMap(2);
  m.remember("A.Example.", ["192.0.2.1", "2001:db8::1"]);
  assert.equal(m.nameOf("192.0.2.1"), "a.example");
  m.remember("b.example", ["192.0.2.2"]);
  assert.equal(m.nameOf("192.0.2.1"), undefined, "oldest dropped past capacity");
  assert.equal(m.nameOf("192.0.2.2"), "b.example");
});
