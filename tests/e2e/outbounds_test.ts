/**
 * svc's outbounds against real peers (PEERS.md): socks → dante (TCP, UDP, SOCKS4), socks4a →
 * a second svc, socks with a password → microsocks, http → squid (CONNECT), a detour chain
 * svc → squid → dante, block, reject, and route rules choosing outbounds.
 */
import assert from "node:assert/strict";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort, origin, udpEcho, waitFor } from "../support/e2e.ts";
import { startDante, startMicrosocks, startSquid } from "../support/peers.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";

const HELLO = "hello from origin\n";

function viaConfig(outbounds: unknown[], route: Record<string, unknown> = {}) {
  return {
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds,
    route,
  };
}

/** dante logs a `connect` line naming the destination as `ip.port`. */
function danteServed(log: string, port: number): boolean {
  return log.split("\n").some((l) => l.includes("pass") && l.includes(`127.0.0.1.${port}`));
}

Deno.test("socks outbound (SOCKS5) through dante: TCP by address and by name", async () => {
  await using o = origin();
  await using dante = await startDante();
  await using svc = await startEngine(viaConfig([
    { type: "socks", tag: "dante", server: "127.0.0.1", server_port: dante.port, version: "5" },
  ]));
  const p = inboundPort(svc, "in");
  const byIp = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(byIp.code, 0, byIp.stderr);
  assert.equal(byIp.stdout, HELLO);
  const byName = await curl(["-x", `socks5h://127.0.0.1:${p}`, `http://localhost:${o.port}/hello`]);
  assert.equal(byName.code, 0, byName.stderr);
  assert.equal(byName.stdout, HELLO);
  const viaHttp = await curl(["-x", `http://127.0.0.1:${p}`, o.url("/echo")]);
  assert.equal(JSON.parse(viaHttp.stdout).method, "GET", viaHttp.stderr);
  const big = await curl([
    "-x",
    `socks5://127.0.0.1:${p}`,
    "-o",
    "/dev/null",
    "-w",
    "%{size_download}",
    o.url("/bytes?n=5000000"),
  ]);
  assert.equal(big.stdout, "5000000", big.stderr);
  await waitFor("dante's log of the connection", () => danteServed(dante.log(), o.port));
  assert.ok(svc.logs.some((l) => l.includes("via dante")), svc.logs.join(""));
});

Deno.test("socks outbound (SOCKS5) through dante: UDP ASSOCIATE end to end", async () => {
  using echo = udpEcho();
  await using dante = await startDante();
  await using svc = await startEngine(viaConfig([
    { type: "socks", tag: "dante", server: "127.0.0.1", server_port: dante.port, version: "5" },
  ]));
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "in") });
  for (let i = 0; i < 5; i++) {
    await client.send({ host: "127.0.0.1", port: echo.port }, `datagram ${i}`);
    const got = await client.receive();
    assert.ok(got, `echo of datagram ${i}`);
    assert.equal(new TextDecoder().decode(got.payload), `datagram ${i}`);
    assert.deepEqual(got.from, { host: "127.0.0.1", port: echo.port });
  }
  assert.ok(svc.logs.some((l) => l.includes("udp ") && l.includes("via dante")), svc.logs.join(""));
  assert.match(dante.log(), /pass\(\d+\): udp\/udpassociate/, "dante relayed the datagrams");
});

Deno.test("socks outbound version 4 through dante", async () => {
  await using o = origin();
  await using dante = await startDante();
  await using svc = await startEngine(viaConfig([
    { type: "socks", tag: "dante4", server: "127.0.0.1", server_port: dante.port, version: "4" },
  ]));
  const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, o.url("/hello")]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, HELLO);
  await waitFor("dante's log of the connection", () => danteServed(dante.log(), o.port));
  // A name is resolved by svc first: SOCKS4 carries only an IPv4 address.
  const named = await curl([
    "-x",
    `socks5h://127.0.0.1:${inboundPort(svc, "in")}`,
    `http://localhost:${o.port}/hello`,
  ]);
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.stdout, HELLO);
  // SOCKS4 has no UDP: the outbound refuses UDP rather than pretending.
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "in") });
  await client.send({ host: "127.0.0.1", port: o.port }, "x");
  const refused = await waitFor("the UDP refusal", () => svc.logs.find((l) => /does not carry UDP/.test(l)));
  assert.match(refused, /udp 127\.0\.0\.1:\d+ via dante4/);
  assert.equal(await client.receive(50), undefined);
});

Deno.test("socks outbound version 4a carries the name to a second svc's socks inbound", async () => {
  await using o = origin();
  await using server = await startEngine({
    log: { level: "info" },
    inbounds: [{ type: "socks", tag: "socks-server", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  await using svc = await startEngine(viaConfig([
    {
      type: "socks",
      tag: "v4a",
      server: "127.0.0.1",
      server_port: inboundPort(server, "socks-server"),
      version: "4a",
    },
  ]));
  const r = await curl([
    "-x",
    `socks5h://127.0.0.1:${inboundPort(svc, "in")}`,
    `http://localhost:${o.port}/hello`,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, HELLO);
  assert.ok(
    server.logs.some((l) => l.includes(`-> localhost:${o.port}`) && l.includes("[socks-server]")),
    `the second svc got the name:\n${server.logs.join("")}`,
  );
});

Deno.test("socks outbound with username/password through microsocks; a wrong password fails", async () => {
  await using o = origin();
  await using ms = await startMicrosocks({ user: "user", pass: "s3cret" });
  const outbound = (password: string) => ({
    type: "socks",
    tag: "ms",
    server: "127.0.0.1",
    server_port: ms.port,
    version: "5",
    username: "user",
    password,
  });
  {
    await using svc = await startEngine(viaConfig([outbound("s3cret")]));
    const r = await curl([
      "-x",
      `socks5h://127.0.0.1:${inboundPort(svc, "in")}`,
      `http://localhost:${o.port}/hello`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, HELLO);
  }
  {
    await using svc = await startEngine(viaConfig([outbound("wrong")]));
    const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, o.url("/hello")]);
    assert.equal(r.code, 97, `svc refuses the client when microsocks refuses svc: ${r.stderr}`);
    assert.equal(r.stdout, "");
    assert.ok(svc.logs.some((l) => /authentication failed/i.test(l)), svc.logs.join(""));
    const http = await curl([
      "-x",
      `http://127.0.0.1:${inboundPort(svc, "in")}`,
      "-o",
      "/dev/null",
      "-w",
      "%{http_code}",
      o.url("/hello"),
    ]);
    assert.equal(http.stdout, "502", http.stderr);
  }
});

Deno.test("http outbound through squid (CONNECT), and a detour chain svc → squid → dante", async (t) => {
  await using o = origin();
  await using squid = await startSquid();
  await using dante = await startDante();

  await t.step("http outbound: CONNECT through squid", async () => {
    await using svc = await startEngine(viaConfig([
      { type: "http", tag: "squid", server: "127.0.0.1", server_port: squid.port },
    ]));
    const p = inboundPort(svc, "in");
    for (const proxy of [`socks5://127.0.0.1:${p}`, `http://127.0.0.1:${p}`]) {
      const r = await curl(["-x", proxy, o.url("/hello")]);
      assert.equal(r.code, 0, `${proxy}: ${r.stderr}`);
      assert.equal(r.stdout, HELLO);
    }
    const big = await curl([
      "-x",
      `socks5://127.0.0.1:${p}`,
      "-o",
      "/dev/null",
      "-w",
      "%{size_download}",
      o.url("/bytes?n=4000000"),
    ]);
    assert.equal(big.stdout, "4000000", big.stderr);
    const connect = new RegExp(`CONNECT 127\\.0\\.0\\.1:${o.port}`);
    await waitFor("squid's log of the CONNECT", () => connect.test(squid.log()));
  });

  await t.step("detour: the socks outbound reaches dante through squid", async () => {
    await using svc = await startEngine(viaConfig(
      [
        {
          type: "socks",
          tag: "dante",
          server: "127.0.0.1",
          server_port: dante.port,
          version: "5",
          detour: "squid",
        },
        { type: "http", tag: "squid", server: "127.0.0.1", server_port: squid.port },
      ],
      { final: "dante" },
    ));
    const r = await curl(["-x", `socks5://127.0.0.1:${inboundPort(svc, "in")}`, o.url("/echo")]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).path, "/echo");
    // squid logs a CONNECT when its tunnel closes, a moment after the transfer.
    const tunnel = new RegExp(`CONNECT 127\\.0\\.0\\.1:${dante.port}`);
    await waitFor("squid's log of the tunnel to dante", () => tunnel.test(squid.log()));
    await waitFor(`dante's log of the origin:\n${dante.log()}`, () => danteServed(dante.log(), o.port));
    assert.ok(svc.logs.some((l) => l.includes("via dante")), svc.logs.join(""));
  });
});

Deno.test("block outbound and reject rules fail the request", async () => {
  await using o = origin();
  await using svc = await startEngine(viaConfig(
    [{ type: "direct", tag: "direct" }, { type: "block", tag: "block" }],
    {
      rules: [
        { port: [o.port], domain: ["localhost"], outbound: "block" },
        { port: [o.port], ip_cidr: ["127.0.0.1/32"], action: "reject" },
      ],
    },
  ));
  const p = inboundPort(svc, "in");
  const blocked = await curl(["-x", `socks5h://127.0.0.1:${p}`, `http://localhost:${o.port}/hello`]);
  assert.equal(blocked.code, 97, blocked.stderr);
  assert.equal(blocked.stdout, "");
  const blockedHttp = await curl([
    "-x",
    `http://127.0.0.1:${p}`,
    "-o",
    "/dev/null",
    "-w",
    "%{http_code}",
    `http://localhost:${o.port}/hello`,
  ]);
  assert.equal(blockedHttp.stdout, "502", blockedHttp.stderr);
  assert.ok(svc.logs.some((l) => l.includes("via block")), svc.logs.join(""));

  const rejected = await curl(["-x", `socks5://127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(rejected.code, 97, rejected.stderr);
  assert.match(rejected.stderr, /\(2\)/, "SOCKS5 reply 2: connection not allowed by ruleset");
  const rejectedHttp = await curl([
    "-x",
    `http://127.0.0.1:${p}`,
    "-o",
    "/dev/null",
    "-w",
    "%{http_code}",
    o.url("/hello"),
  ]);
  assert.equal(rejectedHttp.stdout, "403", rejectedHttp.stderr);
  const rejectedTunnel = await curl(["-p", "-x", `http://127.0.0.1:${p}`, o.url("/hello")]);
  assert.notEqual(rejectedTunnel.code, 0);
  assert.ok(svc.logs.some((l) => l.includes("rejected by")), svc.logs.join(""));
});

Deno.test("route rules: inbound, network, domain_suffix, port and ip_cidr choose outbounds", async () => {
  await using o = origin();
  await using o2 = origin();
  await using o6 = origin("::1");
  using echo = udpEcho();
  await using svc = await startEngine({
    log: { level: "info" },
    inbounds: [
      { type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 },
      { type: "mixed", tag: "in2", listen: "127.0.0.1", listen_port: 0 },
    ],
    outbounds: [
      { type: "direct", tag: "by-final" },
      { type: "direct", tag: "by-inbound" },
      { type: "direct", tag: "by-network" },
      { type: "direct", tag: "by-domain" },
      { type: "direct", tag: "by-port" },
      { type: "direct", tag: "by-cidr" },
    ],
    route: {
      rules: [
        { inbound: ["in2"], outbound: "by-inbound" },
        { network: ["udp"], outbound: "by-network" },
        { domain_suffix: ["localhost"], outbound: "by-domain" },
        { port: [o2.port], outbound: "by-port" },
        { ip_cidr: ["127.0.0.0/8"], outbound: "by-cidr" },
      ],
    },
  });
  const p = inboundPort(svc, "in");
  const chosen = async (args: string[], url: string): Promise<string> => {
    const before = svc.logs.length;
    const r = await curl([...args, url]);
    assert.equal(r.code, 0, `${url}: ${r.stderr}`);
    const line = svc.logs.slice(before).find((l) => l.includes(" via "));
    assert.ok(line, `a routing line for ${url}`);
    return /via (\S+)/.exec(line)![1];
  };
  assert.equal(
    await chosen(["-x", `socks5h://127.0.0.1:${p}`], `http://localhost:${o.port}/hello`),
    "by-domain",
  );
  assert.equal(await chosen(["-x", `socks5://127.0.0.1:${p}`], o2.url("/hello")), "by-port");
  assert.equal(await chosen(["-x", `socks5://127.0.0.1:${p}`], o.url("/hello")), "by-cidr");
  assert.equal(await chosen(["-x", `socks5://127.0.0.1:${p}`], o6.url("/hello")), "by-final");
  assert.equal(
    await chosen(
      ["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in2")}`],
      `http://localhost:${o.port}/hello`,
    ),
    "by-inbound",
  );
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: p });
  await client.send({ host: "127.0.0.1", port: echo.port }, "udp rule");
  assert.equal(new TextDecoder().decode((await client.receive())?.payload), "udp rule");
  assert.ok(svc.logs.some((l) => l.includes("udp ") && l.includes("via by-network")), svc.logs.join(""));
});

Deno.test("tracker shows the outbound and rule of a live connection", async () => {
  await using o = origin();
  await using svc = await startEngine(viaConfig(
    [{ type: "direct", tag: "direct" }, { type: "direct", tag: "chosen" }],
    { rules: [{ port: [o.port], outbound: "chosen" }] },
  ));
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: inboundPort(svc, "in") });
  try {
    const req = `CONNECT 127.0.0.1:${o.port} HTTP/1.1\r\nHost: 127.0.0.1:${o.port}\r\n\r\n`;
    await conn.write(new TextEncoder().encode(req));
    const buf = new Uint8Array(1024);
    const n = await conn.read(buf);
    assert.match(new TextDecoder().decode(buf.subarray(0, n ?? 0)), /^HTTP\/1\.1 200/);
    const live = svc.engine.tracker.list();
    assert.equal(live.length, 1);
    assert.equal(live[0].outbound, "chosen");
    assert.match(live[0].rule, new RegExp(`port=${o.port}`));
    assert.deepEqual(live[0].metadata.destination, { host: "127.0.0.1", port: o.port });
  } finally {
    conn.close();
  }
});
