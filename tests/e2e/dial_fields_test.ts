/** Dial fields that Deno can honour, observed from the origin's side with real curl. */
import assert from "node:assert/strict";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startOrigin } from "../support/origin.ts";

Deno.test("inet4_bind_address: the origin sees the bound source address", async () => {
  const origin = startOrigin();
  await using svc = await startEngine({
    log: { level: "warn" },
    inbounds: [{ type: "mixed", tag: "in", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "bound", inet4_bind_address: "127.0.0.2", tcp_keep_alive: "30s" }],
  });
  try {
    const r = await curl(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`, origin.url("/echo")]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).remote, "127.0.0.2");
    // A large body through the node:net path keeps its bytes in order.
    const big = await curl([
      "-x",
      `socks5h://127.0.0.1:${inboundPort(svc, "in")}`,
      origin.url("/bytes?n=3000000"),
      "-o",
      "/dev/null",
      "-w",
      "%{size_download}",
    ]);
    assert.equal(big.stdout, "3000000");
  } finally {
    await origin.close();
  }
});

Deno.test('a refused dial answers the SOCKS5 client at once with "connection refused"', async () => {
  await using svc = await startEngine({
    log: { level: "error" },
    inbounds: [{ type: "mixed", tag: "in", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "d", connect_timeout: "1s" }],
  });
  const start = performance.now();
  const r = await curl(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`, "http://127.0.0.1:1/"]);
  assert.equal(r.code, 97, r.stderr); // curl: the proxy refused the request
  assert.match(r.stderr, /\(5\)/); // SOCKS5 reply 5: connection refused
  assert.ok(performance.now() - start < 1000);
});
