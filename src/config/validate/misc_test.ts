import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { isLoopbackHostPort } from "./misc.ts";

Deno.test("isLoopbackHostPort accepts loopback host:port only", () => {
  for (const ok of ["127.0.0.1:9090", "127.1.2.3:1", "[::1]:9090", "localhost:80", "LOCALHOST:80"]) {
    assertEquals(isLoopbackHostPort(ok), true, ok);
  }
  for (
    const bad of [
      "0.0.0.0:9090",
      "127.0.0.1",
      ":9090",
      "[::]:9090",
      "10.0.0.1:80",
      "127.0.0.1:99999",
      "::1:80",
    ]
  ) {
    assertEquals(isLoopbackHostPort(bad), false, bad);
  }
});
