/**
 * Outbound providers with real traffic: a local HTTP origin serves a subscription (base64 of a
 * socks:// link to a real dante peer); curl → mixed inbound → selector with `providers` → the
 * provider's member → dante → an HTTP origin. A broken second download keeps the set; a restart
 * with the subscription server down runs from the on-disk cache.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/mod.ts";
import { Engine } from "../../src/engine/engine.ts";
import type { SelectorGroup } from "../../src/group/mod.ts";
import { curl } from "../support/engine.ts";
import { inboundPort, origin, waitFor } from "../support/e2e.ts";
import { startDante } from "../support/peers.ts";

function subscriptionServer() {
  const state = { body: "", status: 200, requests: 0, userAgent: "" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    state.requests++;
    state.userAgent = req.headers.get("user-agent") ?? "";
    return new Response(state.body, { status: state.status });
  });
  return { state, port: server.addr.port, close: () => server.shutdown() };
}

function config(subPort: number) {
  return {
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [
      { type: "direct", tag: "direct" },
      { type: "selector", tag: "pick", providers: ["sub"] },
    ],
    outbound_providers: [{
      type: "remote",
      tag: "sub",
      url: `http://127.0.0.1:${subPort}/sub`,
      download_detour: "direct",
      update_interval: "1h",
      exclude: ["^unused"],
    }],
    route: { final: "pick" },
  };
}

async function run(cfg: unknown, dataDir: string, logs: string[]) {
  const { model } = loadConfig(JSON.stringify(cfg));
  const engine = Engine.build(model, { dataDir, logSink: { write: (l) => void logs.push(l) } });
  await engine.start();
  return engine;
}

Deno.test("providers e2e: remote subscription through dante, a broken update keeps the set, restart from cache", async () => {
  await using dante = await startDante();
  await using web = origin();
  const sub = subscriptionServer();
  const dataDir = await Deno.makeTempDir();
  sub.state.body = btoa(
    `socks://127.0.0.1:${dante.port}#dante\nsocks://127.0.0.1:1#unused-one\nnot-a-link://x\n`,
  );
  const logs: string[] = [];
  let engine = await run(config(sub.port), dataDir, logs);
  try {
    await waitFor("first download", () => engine.providers.tags("sub")?.length);
    assert.deepEqual(engine.providers.tags("sub"), ["dante"]);
    assert.match(sub.state.userAgent, /svc/);
    assert.deepEqual((engine.outbounds.get("pick") as SelectorGroup).members, ["dante"]);
    const port = inboundPort({ engine, logs, [Symbol.asyncDispose]: () => engine.stop() }, "in");
    const r = await curl(["-x", `socks5h://127.0.0.1:${port}`, web.url("/hello")]);
    assert.equal(r.stdout, "hello from origin\n", r.stderr);
    assert.ok(dante.log().includes(`127.0.0.1.${web.port}`), "dante carried the request");

    // A broken body and a server error: the set stays, and the log says so.
    sub.state.body = "<html>maintenance</html>";
    assert.equal(await engine.providers.update("sub"), false);
    sub.state.status = 500;
    assert.equal(await engine.providers.update("sub"), false);
    assert.ok(logs.some((l) => /download failed, keeping the last good set \(1 outbounds\)/.test(l)));
    assert.ok(logs.some((l) => /HTTP status 500/.test(l)));
    assert.deepEqual(engine.providers.tags("sub"), ["dante"]);
    const again = await curl(["-x", `http://127.0.0.1:${port}`, web.url("/hello")]);
    assert.equal(again.stdout, "hello from origin\n", again.stderr);
  } finally {
    await engine.stop();
  }

  // The subscription server is gone: the cache gives the set at build time, no network needed.
  await sub.close();
  const requests = sub.state.requests;
  const logs2: string[] = [];
  engine = await run(config(sub.port), dataDir, logs2);
  try {
    assert.deepEqual(engine.providers.tags("sub"), ["dante"]);
    const port = inboundPort({ engine, logs: logs2, [Symbol.asyncDispose]: () => engine.stop() }, "in");
    const r = await curl(["-x", `socks5h://127.0.0.1:${port}`, web.url("/hello")]);
    assert.equal(r.stdout, "hello from origin\n", r.stderr);
    assert.equal(sub.state.requests, requests, "a fresh cache is not downloaded again");
  } finally {
    await engine.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
