/**
 * Issue #2's inbounds with a real client: curl through mixed, socks, http and direct inbounds to
 * a local origin, with users, keep-alive forwarding and IPv6.
 */
import assert from "node:assert/strict";
import { curl, freePort, startEngine } from "../support/engine.ts";
import { countingOrigin, inboundPort, origin, udpEcho, udpRoundTrip } from "../support/e2e.ts";

const HELLO = "hello from origin\n";

function proxyConfig(type: string, extra: Record<string, unknown> = {}, listen = "127.0.0.1") {
  return {
    log: { level: "info" },
    inbounds: [{ type, tag: "in", listen, listen_port: 0, ...extra }],
    outbounds: [{ type: "direct", tag: "direct" }, { type: "block", tag: "block" }],
  };
}

/** The log line the router writes for a connection to `dest` (host:port as the client named it). */
function routedTo(logs: string[], dest: string): string | undefined {
  return logs.find((l) => l.includes(`-> ${dest} `) || l.includes(`-> ${dest}\n`));
}

Deno.test("mixed inbound: curl with socks5, socks5h, socks4 and socks4a reaches the origin", async () => {
  await using o = origin();
  await using svc = await startEngine(proxyConfig("mixed"));
  const p = inboundPort(svc, "in");
  for (const scheme of ["socks5", "socks4"]) {
    const r = await curl(["-x", `${scheme}://127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(r.code, 0, `${scheme}: ${r.stderr}`);
    assert.equal(r.stdout, HELLO, scheme);
  }
  // The "h"/"a" variants send the name, so svc (not curl) resolves localhost.
  for (const scheme of ["socks5h", "socks4a"]) {
    const r = await curl(["-x", `${scheme}://127.0.0.1:${p}`, `http://localhost:${o.port}/hello`]);
    assert.equal(r.code, 0, `${scheme}: ${r.stderr}`);
    assert.equal(r.stdout, HELLO, scheme);
  }
  assert.ok(routedTo(svc.logs, `localhost:${o.port}`), `a connection to the name:\n${svc.logs.join("")}`);
  assert.equal(svc.logs.filter((l) => l.includes(`-> localhost:${o.port}`)).length, 2);
});

Deno.test("mixed inbound: HTTP absolute-URI GET, POST with a body, chunked responses", async () => {
  await using o = origin();
  await using svc = await startEngine(proxyConfig("mixed"));
  const proxy = `http://127.0.0.1:${inboundPort(svc, "in")}`;

  const get = await curl(["-x", proxy, o.url("/hello")]);
  assert.equal(get.code, 0, get.stderr);
  assert.equal(get.stdout, HELLO);

  const body = "field=value&other=" + "x".repeat(5000);
  const post = await curl([
    "-x",
    proxy,
    "-H",
    "Proxy-Authorization: Basic dXNlcjpwYXNz",
    "-H",
    "Proxy-Custom: secret",
    "-H",
    "X-Kept: yes",
    "--data-binary",
    body,
    o.url("/echo?q=1"),
  ]);
  assert.equal(post.code, 0, post.stderr);
  const echoed = JSON.parse(post.stdout);
  assert.equal(echoed.method, "POST");
  assert.equal(echoed.path, "/echo?q=1", "origin-form path sent upstream");
  assert.equal(echoed.body, body);
  assert.equal(echoed.headers["x-kept"], "yes");
  assert.equal(echoed.headers["content-length"], String(body.length));
  const proxyHeaders = Object.keys(echoed.headers).filter((k) => k.startsWith("proxy-"));
  assert.deepEqual(proxyHeaders, [], "Proxy-* headers must not reach the origin");

  const chunked = await curl(["-x", proxy, "-D", "-", o.url("/chunked")]);
  assert.equal(chunked.code, 0, chunked.stderr);
  assert.match(chunked.stdout, /transfer-encoding: chunked/i);
  assert.ok(chunked.stdout.endsWith("\r\n\r\none two three\n"), chunked.stdout);

  const big = await curl([
    "-x",
    proxy,
    "-o",
    "/dev/null",
    "-w",
    "%{size_download}",
    o.url("/bytes?n=3000000"),
  ]);
  assert.equal(big.code, 0, big.stderr);
  assert.equal(big.stdout, "3000000");
});

Deno.test("mixed inbound: HTTP CONNECT tunnel (curl -p)", async () => {
  await using o = origin();
  await using svc = await startEngine(proxyConfig("mixed"));
  const proxy = `http://127.0.0.1:${inboundPort(svc, "in")}`;
  const r = await curl(["-p", "-x", proxy, "-v", o.url("/hello")]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, HELLO);
  assert.match(r.stderr, /CONNECT 127\.0\.0\.1:\d+ HTTP\/1\.1/);
  assert.match(r.stderr, /< HTTP\/1\.1 200 Connection established/);
  const chunked = await curl(["-p", "-x", proxy, o.url("/chunked")]);
  assert.equal(chunked.stdout, "one two three\n");
});

Deno.test("mixed inbound: keep-alive requests to one host share one upstream connection", async () => {
  await using o = countingOrigin();
  await using svc = await startEngine(proxyConfig("mixed"));
  const proxy = `http://127.0.0.1:${inboundPort(svc, "in")}`;
  const r = await curl(["-x", proxy, o.url("/first"), o.url("/second")]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "path=/first conn=1\npath=/second conn=1\n");
  assert.equal(o.connections(), 1, "one upstream connection for both requests");
});

Deno.test("mixed inbound: keep-alive client switching hosts gets both answers", async () => {
  await using o = countingOrigin();
  await using svc = await startEngine(proxyConfig("mixed"));
  const proxy = `http://127.0.0.1:${inboundPort(svc, "in")}`;
  const r = await curl(["-v", "-x", proxy, o.url("/a"), `http://localhost:${o.port}/b`, o.url("/c")]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.deepEqual(lines.map((l) => l.split(" ")[0]), ["path=/a", "path=/b", "path=/c"]);
  // curl reuses its one connection to the proxy; svc re-dials when the host changes.
  assert.equal((r.stderr.match(/Connected to 127\.0\.0\.1/g) ?? []).length, 1, r.stderr);
  assert.equal(o.connections(), 3, "a new upstream connection per change of host");
  assert.ok(routedTo(svc.logs, `localhost:${o.port}`), svc.logs.join(""));
});

Deno.test("socks inbound: socks5, socks5h and socks4; HTTP is refused", async () => {
  await using o = origin();
  await using svc = await startEngine(proxyConfig("socks"));
  const p = inboundPort(svc, "in");
  for (const scheme of ["socks5", "socks5h", "socks4", "socks4a"]) {
    const r = await curl(["-x", `${scheme}://127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(r.code, 0, `${scheme}: ${r.stderr}`);
    assert.equal(r.stdout, HELLO);
  }
  const http = await curl(["-x", `http://127.0.0.1:${p}`, o.url("/hello")]);
  assert.notEqual(http.code, 0, "a socks inbound does not speak HTTP");
});

Deno.test("http inbound: GET, POST and CONNECT; a non-proxy request gets 400", async () => {
  await using o = origin();
  await using svc = await startEngine(proxyConfig("http"));
  const proxy = `http://127.0.0.1:${inboundPort(svc, "in")}`;
  const get = await curl(["-x", proxy, o.url("/hello")]);
  assert.equal(get.stdout, HELLO, get.stderr);
  const post = await curl(["-x", proxy, "--data-binary", "abc", o.url("/echo")]);
  assert.equal(JSON.parse(post.stdout).body, "abc", post.stderr);
  const tunnel = await curl(["-p", "-x", proxy, o.url("/hello")]);
  assert.equal(tunnel.stdout, HELLO, tunnel.stderr);
  // A request that is not for a proxy (origin-form target) is refused, not forwarded.
  const direct = await curl([
    "-o",
    "/dev/null",
    "-w",
    "%{http_code}",
    `http://127.0.0.1:${inboundPort(svc, "in")}/hello`,
  ]);
  assert.equal(direct.stdout, "400", direct.stderr);
});

Deno.test("direct inbound: override_address/override_port forwards TCP and UDP", async () => {
  await using o = origin();
  using echo = udpEcho();
  const tcpPort = freePort();
  const udpPort = freePort();
  await using svc = await startEngine({
    log: { level: "info" },
    inbounds: [
      {
        type: "direct",
        tag: "fwd-tcp",
        listen: "127.0.0.1",
        listen_port: tcpPort,
        network: "tcp",
        override_address: "127.0.0.1",
        override_port: o.port,
      },
      {
        type: "direct",
        tag: "fwd-udp",
        listen: "127.0.0.1",
        listen_port: udpPort,
        network: "udp",
        override_address: "127.0.0.1",
        override_port: echo.port,
      },
    ],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  const r = await curl([`http://127.0.0.1:${tcpPort}/hello`]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, HELLO);
  const echoed = await udpRoundTrip({ hostname: "127.0.0.1", port: udpPort }, "ping over udp");
  assert.equal(echoed, "ping over udp");
  assert.ok(
    svc.logs.some((l) => l.includes(`udp `) && l.includes(`-> 127.0.0.1:${echo.port}`)),
    svc.logs.join(""),
  );
});

const USERS = [
  { username: "alice", password: "alice-pass" },
  { username: "bob", password: "bob-pass" },
];

function usersConfig(type: string) {
  const c = proxyConfig(type, { users: USERS });
  return { ...c, route: { rules: [{ auth_user: ["alice"], outbound: "block" }], final: "direct" } };
}

Deno.test("socks inbound users: right password works, wrong fails, auth_user routes alice to block", async () => {
  await using o = origin();
  await using svc = await startEngine(usersConfig("socks"));
  const p = inboundPort(svc, "in");
  const bob = await curl(["-x", `socks5h://bob:bob-pass@127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(bob.code, 0, bob.stderr);
  assert.equal(bob.stdout, HELLO);
  const wrong = await curl(["-x", `socks5h://bob:nope@127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(wrong.code, 97, `curl reports the failed SOCKS login: ${wrong.stderr}`);
  const none = await curl(["-x", `socks5h://127.0.0.1:${p}`, o.url("/hello")]);
  assert.equal(none.code, 97, `no credentials: ${none.stderr}`);
  const socks4 = await curl(["-x", `socks4://127.0.0.1:${p}`, o.url("/hello")]);
  assert.notEqual(socks4.code, 0, "SOCKS4 cannot authenticate, so it is refused");
  const alice = await curl(["-x", `socks5h://alice:alice-pass@127.0.0.1:${p}`, o.url("/hello")]);
  assert.notEqual(alice.code, 0, "alice is routed to block");
  assert.equal(alice.stdout, "");
  assert.ok(svc.logs.some((l) => l.includes("user alice") && l.includes("via block")), svc.logs.join(""));
  assert.ok(svc.logs.some((l) => l.includes("user bob") && l.includes("via direct")), svc.logs.join(""));
});

Deno.test("http inbound users: 407 without or with wrong credentials, auth_user routes alice to block", async () => {
  await using o = origin();
  await using svc = await startEngine(usersConfig("http"));
  const proxy = (cred: string) => `http://${cred}127.0.0.1:${inboundPort(svc, "in")}`;
  const status = ["-o", "/dev/null", "-w", "%{http_code}"];
  const bob = await curl(["-x", proxy("bob:bob-pass@"), o.url("/hello")]);
  assert.equal(bob.code, 0, bob.stderr);
  assert.equal(bob.stdout, HELLO);
  const bobTunnel = await curl(["-p", "-x", proxy("bob:bob-pass@"), o.url("/hello")]);
  assert.equal(bobTunnel.stdout, HELLO, bobTunnel.stderr);
  const wrong = await curl(["-f", ...status, "-x", proxy("bob:nope@"), o.url("/hello")]);
  assert.equal(wrong.code, 22, wrong.stderr);
  assert.equal(wrong.stdout, "407");
  const none = await curl(["-f", ...status, "-x", proxy(""), o.url("/hello")]);
  assert.equal(none.stdout, "407");
  const wrongTunnel = await curl(["-p", "-x", proxy("bob:nope@"), o.url("/hello")]);
  assert.equal(wrongTunnel.code, 56, `CONNECT refused with 407: ${wrongTunnel.stderr}`);
  const alice = await curl(["-f", ...status, "-x", proxy("alice:alice-pass@"), o.url("/hello")]);
  assert.equal(alice.code, 22, alice.stderr);
  assert.notEqual(alice.stdout, "200");
  const aliceTunnel = await curl(["-p", "-x", proxy("alice:alice-pass@"), o.url("/hello")]);
  assert.notEqual(aliceTunnel.code, 0, "alice's tunnel is blocked");
  assert.ok(svc.logs.some((l) => l.includes("user alice") && l.includes("via block")), svc.logs.join(""));
});

Deno.test("mixed inbound users: socks5 and http both authenticate; alice goes to block", async () => {
  await using o = origin();
  await using svc = await startEngine(usersConfig("mixed"));
  const p = inboundPort(svc, "in");
  for (const scheme of ["socks5h", "http"]) {
    const bob = await curl(["-x", `${scheme}://bob:bob-pass@127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(bob.stdout, HELLO, `${scheme}: ${bob.stderr}`);
    const wrong = await curl(["-f", "-x", `${scheme}://bob:wrong@127.0.0.1:${p}`, o.url("/hello")]);
    assert.equal(wrong.code, scheme === "http" ? 22 : 97, `${scheme}: ${wrong.stderr}`);
    const alice = await curl(["-f", "-x", `${scheme}://alice:alice-pass@127.0.0.1:${p}`, o.url("/hello")]);
    assert.notEqual(alice.code, 0, `${scheme}: alice is routed to block`);
    assert.equal(alice.stdout, "");
  }
  assert.equal(svc.logs.filter((l) => l.includes("user alice") && l.includes("via block")).length, 2);
});

Deno.test("IPv6: inbounds listening on ::1 reach an origin on ::1", async () => {
  await using o = origin("::1");
  await using svc = await startEngine(proxyConfig("mixed", {}, "::1"));
  const p = inboundPort(svc, "in");
  for (
    const args of [
      ["-x", `socks5://[::1]:${p}`],
      ["-x", `socks5h://[::1]:${p}`],
      ["-x", `http://[::1]:${p}`],
      [
        "-p",
        "-x",
        `http://[::1]:${p}`,
      ],
    ]
  ) {
    const r = await curl([...args, o.url("/echo")]);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    const echoed = JSON.parse(r.stdout);
    assert.equal(echoed.remote, "::1", "svc dialed the origin over IPv6");
  }
  assert.ok(svc.logs.some((l) => l.includes(`-> [::1]:${o.port}`)), svc.logs.join(""));
});

Deno.test("mixed inbound: HEAD and keep-alive, a chunked request body, a large upload", async () => {
  await using o = origin();
  await using svc = await startEngine(proxyConfig("mixed"));
  const proxy = `http://127.0.0.1:${inboundPort(svc, "in")}`;
  // A HEAD response has no body whatever its Content-Length: the next request must still work.
  const head = await curl(["-x", proxy, "-I", o.url("/bytes?n=5000"), "-I", o.url("/hello")]);
  assert.equal(head.code, 0, head.stderr);
  assert.equal((head.stdout.match(/^HTTP\/1\.1 200/gm) ?? []).length, 2, head.stdout);
  assert.match(head.stdout, /content-length: 5000/i);

  const chunked = await curl([
    "-x",
    proxy,
    "-H",
    "Transfer-Encoding: chunked",
    "--data-binary",
    "sent in chunks",
    o.url("/echo"),
  ]);
  assert.equal(chunked.code, 0, chunked.stderr);
  assert.equal(JSON.parse(chunked.stdout).body, "sent in chunks");

  const big = "y".repeat(3_000_000);
  const file = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(file, big);
    for (const args of [["-x", proxy], ["-p", "-x", proxy], ["-x", proxy.replace("http:", "socks5:")]]) {
      const up = await curl([...args, "--data-binary", `@${file}`, o.url("/echo")]);
      assert.equal(up.code, 0, up.stderr);
      assert.equal(JSON.parse(up.stdout).body.length, big.length, args.join(" "));
    }
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("socks inbound: a half-closed client still gets the whole response", async () => {
  await using o = origin();
  await using svc = await startEngine(proxyConfig("socks"));
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: inboundPort(svc, "in") });
  try {
    const read = async (n: number) => {
      const out = new Uint8Array(n);
      let off = 0;
      while (off < n) off += (await conn.read(out.subarray(off))) ?? Number.NaN;
      return out;
    };
    await conn.write(new Uint8Array([5, 1, 0]));
    assert.deepEqual(await read(2), new Uint8Array([5, 0]));
    await conn.write(new Uint8Array([5, 1, 0, 1, 127, 0, 0, 1, o.port >> 8, o.port & 0xff]));
    const reply = await read(10);
    assert.equal(reply[1], 0, "CONNECT succeeded");
    await conn.write(new TextEncoder().encode(`GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    await conn.closeWrite();
    const response = await new Response(conn.readable).text();
    assert.match(response, /^HTTP\/1\.1 200/);
    assert.ok(response.endsWith(HELLO), response);
  } finally {
    try {
      conn.close();
    } catch { /* closed by reading to the end */ }
  }
});

Deno.test("socks5: dial failures map to SOCKS5 reply codes", async () => {
  await using svc = await startEngine(proxyConfig("mixed"));
  const p = inboundPort(svc, "in");
  const refused = await curl(["-x", `socks5://127.0.0.1:${p}`, `http://127.0.0.1:${freePort()}/`]);
  assert.equal(refused.code, 97);
  assert.match(refused.stderr, /\(5\)/, `connection refused is reply 5: ${refused.stderr}`);
  const unknown = await curl(["-x", `socks5h://127.0.0.1:${p}`, "http://no-such-host.invalid/"]);
  assert.equal(unknown.code, 97);
  assert.match(unknown.stderr, /\(4\)/, `an unresolvable host is reply 4: ${unknown.stderr}`);
  const viaHttp = await curl([
    "-x",
    `http://127.0.0.1:${p}`,
    "-o",
    "/dev/null",
    "-w",
    "%{http_code}",
    "http://no-such-host.invalid/",
  ]);
  assert.equal(viaHttp.stdout, "502");
});
