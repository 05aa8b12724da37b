/**
 * Group outbounds with real traffic: curl → mixed inbound → group → socks outbounds to real dante
 * and microsocks peers. Peers are stopped mid-test to see fallback and urltest move; one path is
 * slowed by a delaying TCP relay written here. Health checks fetch a local HTTP origin.
 */
import assert from "node:assert/strict";
import { ConfigErrors } from "../../src/common/errors.ts";
import { loadConfig } from "../../src/config/mod.ts";
import { Engine } from "../../src/engine/engine.ts";
import { curl, freePort, startEngine } from "../support/engine.ts";
import { inboundPort, origin, udpEcho, waitFor } from "../support/e2e.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";
import { startDante, startMicrosocks } from "../support/peers.ts";
import type { FallbackGroup, LoadBalanceGroup, SelectorGroup, UrlTestGroup } from "../../src/group/mod.ts";

const HELLO = "hello from origin\n";

function config(outbounds: unknown[], final: string) {
  return {
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds,
    route: { final },
  };
}

const socks = (tag: string, port: number) => ({
  type: "socks",
  tag,
  server: "127.0.0.1",
  server_port: port,
  version: "5",
});

/** dante logs a `pass` line naming the destination as `ip.port`. */
function danteServed(log: string, port: number): number {
  return log.split("\n").filter((l) => l.includes("pass") && l.includes(`127.0.0.1.${port}`)).length;
}

/** A TCP relay to `port` that holds the first bytes from the server back for `delayMs`. */
function delayingRelay(port: number, delayMs: number) {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const pump = async (from: Deno.Conn, to: Deno.Conn, delay: number) => {
    const buf = new Uint8Array(32 * 1024);
    let first = true;
    try {
      for (let n; (n = await from.read(buf)) !== null;) {
        if (first && delay) await new Promise((r) => setTimeout(r, delay));
        first = false;
        for (let off = 0; off < n;) off += await to.write(buf.subarray(off, n));
      }
      await to.closeWrite();
    } catch { /* either side closed */ }
  };
  (async () => {
    for await (const c of l) {
      const up = await Deno.connect({ hostname: "127.0.0.1", port }).catch(() => null);
      if (!up) {
        c.close();
        continue;
      }
      open.add(c).add(up);
      Promise.all([pump(c, up, 0), pump(up, c, delayMs)]).finally(() => {
        for (const x of [c, up]) {
          open.delete(x);
          try {
            x.close();
          } catch { /* closed */ }
        }
      });
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    [Symbol.dispose]() {
      l.close();
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

Deno.test("fallback: dante first; stopping dante moves traffic to microsocks without a failed request", async () => {
  await using o = origin();
  await using health = origin();
  const dante = await startDante();
  await using micro = await startMicrosocks();
  await using svc = await startEngine(config([
    {
      type: "fallback",
      tag: "fb",
      outbounds: ["dante", "micro"],
      url: health.url("/hello"),
      interval: "1s",
    },
    socks("dante", dante.port),
    socks("micro", micro.port),
  ], "fb"));
  const group = svc.engine.outbounds.get("fb") as FallbackGroup;
  const p = inboundPort(svc, "in");
  try {
    const first = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(first.stdout, HELLO, first.stderr);
    await waitFor("dante's log of the request", () => danteServed(dante.log(), o.port) === 1);
    assert.equal(group.now(), "dante");
  } finally {
    await dante[Symbol.asyncDispose]();
  }
  // The next connection's dial to dante fails: it is marked down and microsocks carries it.
  const after = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(after.stdout, HELLO, after.stderr);
  assert.equal(group.now(), "micro");
  const viaHttp = await curl(["-x", `http://127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(viaHttp.stdout, HELLO, viaHttp.stderr);
  assert.ok(svc.logs.some((l) => l.includes("member dante failed")), svc.logs.join(""));
});

Deno.test("urltest: the faster path wins; stopping it switches back to the slow one", async () => {
  await using o = origin();
  await using health = origin();
  await using dante = await startDante();
  const micro = await startMicrosocks();
  using slow = delayingRelay(dante.port, 400);
  await using svc = await startEngine(config([
    {
      type: "urltest",
      tag: "auto",
      outbounds: ["slow", "fast"],
      url: health.url("/hello"),
      interval: "1s",
      tolerance: 100,
    },
    socks("slow", slow.port),
    socks("fast", micro.port),
  ], "auto"));
  const group = svc.engine.outbounds.get("auto") as UrlTestGroup;
  const p = inboundPort(svc, "in");
  try {
    // First use: no results yet, so the first member carries it and the tests start.
    const first = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(first.stdout, HELLO, first.stderr);
    await waitFor("dante's log of the first request", () => danteServed(dante.log(), o.port) === 1);
    await waitFor("urltest to pick the fast member", () => group.now() === "fast", 5000);
    const [s, f] = [group.history("slow").at(-1)?.delay ?? 0, group.history("fast").at(-1)?.delay ?? 0];
    assert.ok(s >= 400 && f < s - 100, `slow ${s} ms, fast ${f} ms`);
    const fast = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(fast.stdout, HELLO, fast.stderr);
    assert.equal(danteServed(dante.log(), o.port), 1, "the request went through microsocks");
  } finally {
    await micro[Symbol.asyncDispose]();
  }
  await waitFor("urltest to leave the stopped member", () => group.now() === "slow", 5000);
  const back = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(back.stdout, HELLO, back.stderr);
  await waitFor("dante's log of the request", () => danteServed(dante.log(), o.port) === 2);
});

Deno.test("selector and load-balance: manual switch, round-robin and consistent-hashing over real peers", async () => {
  await using o = origin();
  await using health = origin();
  await using dante = await startDante();
  await using micro = await startMicrosocks();
  const common = { url: health.url("/hello"), interval: "1m" };
  await using svc = await startEngine(config([
    { type: "selector", tag: "pick", outbounds: ["micro", "dante", "rr", "hash"], default: "dante" },
    { type: "load-balance", tag: "rr", outbounds: ["dante", "micro"], strategy: "round-robin", ...common },
    { type: "load-balance", tag: "hash", outbounds: ["dante", "micro"], ...common },
    socks("dante", dante.port),
    socks("micro", micro.port),
  ], "pick"));
  const p = inboundPort(svc, "in");
  const get = async () => {
    const r = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(r.stdout, HELLO, r.stderr);
  };
  await get();
  await waitFor("dante's log", () => danteServed(dante.log(), o.port) === 1);
  (svc.engine.outbounds.get("pick") as SelectorGroup).select("micro");
  await get();
  assert.equal(danteServed(dante.log(), o.port), 1, "after select the request went through microsocks");
  const pick = svc.engine.outbounds.get("pick") as SelectorGroup;
  pick.select("rr");
  for (let i = 0; i < 4; i++) await get();
  await waitFor("round-robin: two of four through dante", () => danteServed(dante.log(), o.port) === 3);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(danteServed(dante.log(), o.port), 3);
  // consistent-hashing: one destination always takes the same member.
  pick.select("hash");
  for (let i = 0; i < 4; i++) await get();
  await new Promise((r) => setTimeout(r, 300));
  const n = danteServed(dante.log(), o.port) - 3;
  assert.ok(n === 0 || n === 4, `${n} of 4 through dante`);
  assert.equal((svc.engine.outbounds.get("hash") as LoadBalanceGroup).strategy, "consistent-hashing");
});

Deno.test("group configuration errors name their JSON path", () => {
  const { model } = loadConfig(JSON.stringify({
    outbound_providers: [{ type: "inline", tag: "sub", outbounds: [] }],
    outbounds: [
      { type: "selector", tag: "s", outbounds: ["d"], providers: ["sub"] },
      { type: "urltest", tag: "u", outbounds: ["d"], url: "ftp://x/" },
      { type: "fallback", tag: "f", outbounds: [] },
      { type: "selector", tag: "s2", outbounds: ["d"], default: "u" },
      { type: "direct", tag: "d" },
    ],
  }));
  assert.throws(() => Engine.build(model), (e: unknown) => {
    assert.ok(e instanceof ConfigErrors);
    assert.deepEqual(e.errors.map((x) => [x.path, x.detail]), [
      ["/outbounds/1", '"url" must be an http or https URL: "ftp://x/"'],
      ["/outbounds/2", '"outbounds" is empty: a group needs at least one member'],
      ["/outbounds/3", '"default" names "u", which is not one of the group\'s outbounds'],
    ]);
    return true;
  });
});

Deno.test("a Clash YAML with select, url-test and fallback groups runs: traffic through the picked peer", async () => {
  await using o = origin();
  await using health = origin();
  await using dante = await startDante();
  await using micro = await startMicrosocks();
  const port = freePort();
  const yaml = [
    `mixed-port: ${port}`,
    "mode: rule",
    "proxies:",
    `  - { name: d, type: socks5, server: 127.0.0.1, port: ${dante.port} }`,
    `  - { name: m, type: socks5, server: 127.0.0.1, port: ${micro.port} }`,
    "proxy-groups:",
    "  - { name: Proxy, type: select, proxies: [Safe, Auto, DIRECT] }",
    `  - { name: Auto, type: url-test, proxies: [m, d], url: "${health.url("/hello")}", interval: 60 }`,
    `  - { name: Safe, type: fallback, proxies: [d, m], url: "${health.url("/hello")}", interval: 60 }`,
    "rules:",
    "  - MATCH,Proxy",
  ].join("\n");
  const { model } = loadConfig(yaml);
  const engine = Engine.build(model, { logSink: { write: () => {} } });
  await engine.start();
  try {
    const r = await curl(["-x", `socks5://127.0.0.1:${port}`, o.url("/hello")]);
    assert.equal(r.stdout, HELLO, r.stderr);
    await waitFor("dante's log of the request", () => danteServed(dante.log(), o.port) === 1);
    assert.deepEqual(
      ["Proxy", "Auto", "Safe"].map((t) => engine.outbounds.get(t)?.type),
      ["selector", "urltest", "fallback"],
    );
    (engine.outbounds.get("Proxy") as SelectorGroup).select("Auto");
    const viaAuto = await curl(["-x", `http://127.0.0.1:${port}`, o.url("/hello")]);
    assert.equal(viaAuto.stdout, HELLO, viaAuto.stderr);
    assert.equal(danteServed(dante.log(), o.port), 1, "Auto's first member (microsocks) carried it");
  } finally {
    await engine.stop();
  }
});

Deno.test("fallback carries UDP: microsocks (TCP only) stopped, datagrams through dante's UDP ASSOCIATE", async () => {
  using echo = udpEcho();
  await using health = origin();
  await using dante = await startDante();
  const micro = await startMicrosocks();
  await micro[Symbol.asyncDispose]();
  await using svc = await startEngine(config([
    { type: "fallback", tag: "fb", outbounds: ["micro", "dante"], url: health.url("/hello") },
    socks("micro", micro.port),
    socks("dante", dante.port),
  ], "fb"));
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "in") });
  for (let i = 0; i < 3; i++) {
    await client.send({ host: "127.0.0.1", port: echo.port }, `datagram ${i}`);
    const got = await client.receive();
    assert.ok(got, `echo of datagram ${i}`);
    assert.equal(new TextDecoder().decode(got.payload), `datagram ${i}`);
  }
  assert.match(dante.log(), /pass\(\d+\): udp\/udpassociate/, "dante relayed the datagrams");
  assert.equal((svc.engine.outbounds.get("fb") as FallbackGroup).now(), "dante");
});
