/**
 * The router with real clients: sniff (HTTP Host, TLS SNI), override_destination, resolve,
 * route-options, the connection tracker, and route.final's default.
 */
import assert from "node:assert/strict";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort, origin, startRecorder, waitFor } from "../support/e2e.ts";

const HELLO = "hello from origin\n";

function routerConfig(rules: unknown[], outbounds: unknown[] = [], extra: Record<string, unknown> = {}) {
  return {
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "direct" }, { type: "block", tag: "block" }, ...outbounds],
    route: { rules, ...extra },
  };
}

/** The outbound the router chose for the next connection made by `run`, from the log. */
async function routedVia(logs: string[], run: () => Promise<unknown>): Promise<string | undefined> {
  const before = logs.length;
  await run();
  const line = logs.slice(before).find((l) => / via \S+ \(/.test(l) || /rejected by/.test(l));
  if (!line) return undefined;
  return /rejected by/.test(line) ? "rejected" : / via (\S+) \(/.exec(line)![1];
}

Deno.test("sniff: the HTTP Host of a connection to an address makes a domain rule match", async () => {
  await using o = origin();
  await using svc = await startEngine(routerConfig(
    [
      { action: "sniff" },
      { domain: ["sniffed.test"], outbound: "by-sniff" },
    ],
    [{ type: "direct", tag: "by-sniff" }],
  ));
  const p = inboundPort(svc, "in");
  for (
    const args of [["-x", `socks5://127.0.0.1:${p}`], ["-x", `http://127.0.0.1:${p}`], [
      "-p",
      "-x",
      `http://127.0.0.1:${p}`,
    ]]
  ) {
    let r;
    const via = await routedVia(svc.logs, async () => {
      r = await curl([...args, "-H", "Host: sniffed.test", o.url("/hello")]);
    });
    assert.equal(via, "by-sniff", `${args.join(" ")}:\n${svc.logs.join("")}`);
    assert.equal(r!.stdout, HELLO);
  }
  // curl --connect-to: the client names sniffed.test, the proxy only sees the address.
  const via = await routedVia(svc.logs, () =>
    curl([
      "-x",
      `socks5://127.0.0.1:${p}`,
      "--connect-to",
      `sniffed.test:${o.port}:127.0.0.1:${o.port}`,
      `http://sniffed.test:${o.port}/hello`,
    ]));
  assert.equal(via, "by-sniff");
  assert.ok(
    svc.logs.some((l) => l.includes(`-> 127.0.0.1:${o.port} sniffed sniffed.test`)),
    svc.logs.join(""),
  );
  // Another Host does not match the rule.
  const other = await routedVia(
    svc.logs,
    () => curl(["-x", `socks5://127.0.0.1:${p}`, "-H", "Host: other.test", o.url("/hello")]),
  );
  assert.equal(other, "direct");
});

Deno.test("sniff without a sniff rule: a domain rule does not see the Host", async () => {
  await using o = origin();
  await using svc = await startEngine(routerConfig(
    [{ domain: ["sniffed.test"], outbound: "block" }],
  ));
  const r = await curl([
    "-x",
    `socks5://127.0.0.1:${inboundPort(svc, "in")}`,
    "-H",
    "Host: sniffed.test",
    o.url("/hello"),
  ]);
  assert.equal(r.stdout, HELLO, r.stderr);
});

Deno.test("sniff: the TLS SNI routes sni.test direct and blocked.test to block", async () => {
  const rec = startRecorder();
  try {
    await using svc = await startEngine(routerConfig([
      { action: "sniff", sniffer: ["tls"] },
      { domain_suffix: ["blocked.test"], outbound: "block" },
    ]));
    const p = inboundPort(svc, "in");
    const tls = (name: string) => [
      "-x",
      `socks5://127.0.0.1:${p}`,
      "--resolve",
      `${name}:${rec.port}:127.0.0.1`,
      "--max-time",
      "5",
      `https://${name}:${rec.port}/`,
    ];
    // Allowed: the ClientHello reaches the recorder (which never answers; closing it ends curl).
    const pending = curl(tls("sni.test"));
    const hello = await waitFor(
      "the ClientHello at the recorder",
      () => rec.received().find((b) => new TextDecoder().decode(b).includes("sni.test")),
    );
    assert.equal(hello[0], 0x16, "a TLS handshake record");
    rec.close();
    assert.notEqual((await pending).code, 0);
    assert.ok(
      svc.logs.some((l) => l.includes("sniffed sni.test") && l.includes("via direct")),
      svc.logs.join(""),
    );

    const before = rec.received().length;
    const blocked = await curl(tls("www.blocked.test"));
    assert.notEqual(blocked.code, 0);
    assert.equal(rec.received().length, before, "nothing reached the listener");
    assert.ok(
      svc.logs.some((l) => l.includes("sniffed www.blocked.test") && l.includes("via block")),
      svc.logs.join(""),
    );
  } finally {
    rec.close();
  }
});

Deno.test("sniff override_destination: the sniffed domain replaces the address", async () => {
  await using o = origin();
  // Nothing listens on 127.0.0.2; only dialing the sniffed name (localhost) reaches the origin.
  const url = `http://127.0.0.2:${o.port}/hello`;
  const host = `Host: localhost:${o.port}`;
  {
    await using svc = await startEngine(routerConfig([{ action: "sniff", override_destination: true }]));
    const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, "-H", host, url]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, HELLO);
    assert.ok(svc.logs.some((l) => l.includes(`-> localhost:${o.port}`)), svc.logs.join(""));
  }
  {
    await using svc = await startEngine(routerConfig([{ action: "sniff" }]));
    const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, "-H", host, url]);
    assert.notEqual(r.code, 0, "without override the address is dialed, and refused");
  }
  {
    // The same through route-options after a plain sniff.
    await using svc = await startEngine(routerConfig([
      { action: "sniff" },
      { action: "route-options", override_destination: true },
    ]));
    const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, "-H", host, url]);
    assert.equal(r.stdout, HELLO, r.stderr);
  }
});

Deno.test("resolve: an ip_cidr rule matches the resolved address of localhost", async () => {
  await using o = origin();
  const rules = [{ ip_cidr: ["127.0.0.1/32"], outbound: "by-ip" }];
  const url = `http://localhost:${o.port}/hello`;
  {
    await using svc = await startEngine(
      routerConfig([{ action: "resolve" }, ...rules], [{ type: "direct", tag: "by-ip" }]),
    );
    const p = inboundPort(svc, "in");
    let r;
    const via = await routedVia(
      svc.logs,
      async () => (r = await curl(["-x", `socks5h://127.0.0.1:${p}`, url])),
    );
    assert.equal(via, "by-ip", svc.logs.join(""));
    assert.equal(r!.stdout, HELLO);
    const httpVia = await routedVia(svc.logs, () => curl(["-x", `http://127.0.0.1:${p}`, url]));
    assert.equal(httpVia, "by-ip");
  }
  {
    // Without resolve, an ip rule never matches a name.
    await using svc = await startEngine(routerConfig(rules, [{ type: "direct", tag: "by-ip" }]));
    const via = await routedVia(
      svc.logs,
      () => curl(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`, url]),
    );
    assert.equal(via, "direct");
  }
});

Deno.test("route-options override_port and route override_address redirect the connection", async () => {
  await using o = origin();
  await using svc = await startEngine(routerConfig([
    { port: [1], action: "route-options", override_port: o.port },
    { domain: ["redirect.test"], outbound: "direct", override_address: "127.0.0.1", override_port: o.port },
  ]));
  const p = inboundPort(svc, "in");
  const a = await curl(["-x", `socks5://127.0.0.1:${p}`, "http://127.0.0.1:1/hello"]);
  assert.equal(a.stdout, HELLO, a.stderr);
  const b = await curl(["-x", `socks5h://127.0.0.1:${p}`, "http://redirect.test/hello"]);
  assert.equal(b.stdout, HELLO, b.stderr);
  const c = await curl(["-x", `http://127.0.0.1:${p}`, "http://redirect.test/hello"]);
  assert.equal(c.stdout, HELLO, c.stderr);
});

Deno.test("tracker: a live transfer shows metadata, outbound, rule and growing counters; totals after", async () => {
  const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const target = (server.addr as Deno.NetAddr).port;
  await using svc = await startEngine(routerConfig(
    [{ port: [target], outbound: "slow" }],
    [{ type: "direct", tag: "slow" }],
  ));
  const client = await Deno.connect({ hostname: "127.0.0.1", port: inboundPort(svc, "in") });
  let upstream: Deno.Conn | undefined;
  try {
    await client.write(new TextEncoder().encode(`CONNECT 127.0.0.1:${target} HTTP/1.1\r\nHost: x\r\n\r\n`));
    upstream = await server.accept();
    const buf = new Uint8Array(65536);
    const head = await client.read(buf);
    assert.match(new TextDecoder().decode(buf.subarray(0, head!)), /^HTTP\/1\.1 200/);

    const [t] = svc.engine.tracker.list();
    assert.ok(t, "the connection is tracked while it runs");
    assert.equal(t.outbound, "slow");
    assert.equal(t.rule, `port=${target} => route(slow)`);
    assert.equal(t.metadata.inbound, "in");
    assert.equal(t.metadata.inboundType, "mixed");
    assert.equal(t.metadata.network, "tcp");
    assert.deepEqual(t.metadata.destination, { host: "127.0.0.1", port: target });
    assert.equal(t.metadata.source.host, "127.0.0.1");
    assert.ok(t.startMs <= Date.now());

    const chunk = new Uint8Array(20000).fill(7);
    for (let i = 1; i <= 3; i++) {
      await upstream.write(chunk);
      let got = 0;
      while (got < chunk.length) got += (await client.read(buf)) ?? 0;
      await waitFor(`down counter ${i * chunk.length}`, () => t.counters.down === i * chunk.length);
      await client.write(new Uint8Array(100));
      let up = 0;
      while (up < 100) up += (await upstream.read(buf)) ?? 0;
      await waitFor(`up counter ${i * 100}`, () => t.counters.up === i * 100);
      assert.deepEqual(svc.engine.tracker.totals(), { up: i * 100, down: i * chunk.length });
    }
  } finally {
    client.close();
    upstream?.close();
    server.close();
  }
  await waitFor("the connection to leave the tracker", () => svc.engine.tracker.size === 0);
  assert.deepEqual(svc.engine.tracker.totals(), { up: 300, down: 60000 });
});

Deno.test("route.final defaults to the first outbound", async () => {
  await using o = origin();
  await using svc = await startEngine({
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "first" }, { type: "block", tag: "second" }],
  });
  const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, o.url("/hello")]);
  assert.equal(r.stdout, HELLO, r.stderr);
  assert.ok(svc.logs.some((l) => l.includes("via first (final)")), svc.logs.join(""));
});

Deno.test("route.final names the catch-all outbound", async () => {
  await using o = origin();
  await using svc = await startEngine({
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{ type: "block", tag: "first" }, { type: "direct", tag: "second" }],
    route: { final: "second" },
  });
  const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, o.url("/hello")]);
  assert.equal(r.stdout, HELLO, r.stderr);
  assert.ok(svc.logs.some((l) => l.includes("via second (final)")), svc.logs.join(""));
});
