import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { closest, editDistance } from "./suggest.ts";

Deno.test("editDistance counts a swap of neighbours as one edit", () => {
  assertEquals(editDistance("debgu", "debug"), 1);
  assertEquals(editDistance("listen_prot", "listen_port"), 1);
  assertEquals(editDistance("", "abc"), 3);
  assertEquals(editDistance("kitten", "sitting"), 3);
});

Deno.test("closest suggests likely typos only", () => {
  const fields = ["listen", "listen_port", "udp_timeout", "detour"];
  assertEquals(closest("listen_prot", fields), "listen_port");
  assertEquals(closest("Listen-Port", fields), "listen_port");
  assertEquals(closest("udp_timout", fields), "udp_timeout");
  assertEquals(closest("users", fields), undefined);
  assertEquals(closest("6", ["4", "5"]), undefined);
  assertEquals(closest("xor", ["and", "or"]), undefined);
});
