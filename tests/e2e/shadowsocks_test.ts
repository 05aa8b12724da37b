/**
 * shadowsocks against real peers (PEERS.md) and svc ↔ svc: svc outbound → ss-server and
 * ss-local → svc inbound for every AEAD cipher (TCP downloads checked byte for byte, DNS over
 * UDP to dnsmasq), svc → v2ray's shadowsocks inbound, SIP003 plugins (simple-obfs,
 * ss-v2ray-plugin), the 2022 methods svc ↔ svc (TCP, UDP, multi-user with auth_user, replayed
 * request refused), half-close, and bad input on the inbound.
 */
import assert from "node:assert/strict";
import { blobOrigin, curlBytes } from "../support/blob_origin.ts";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort, waitFor } from "../support/e2e.ts";
import { startDnsmasq } from "../support/peers.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";
import { startSsLocal, startSsServer, startV2raySsServer } from "../support/ss_peers.ts";
import { dnsAnswers, dnsQuery } from "../support/trojan_peers.ts";

const AEAD = ["aes-128-gcm", "aes-256-gcm", "chacha20-ietf-poly1305"];
const PASSWORD = "test-password";

function key(n: number): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))));
}

function clientConfig(outbound: Record<string, unknown>, route: Record<string, unknown> = {}) {
  return {
    log: { level: "debug" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{ type: "shadowsocks", tag: "ss", server: "127.0.0.1", ...outbound }],
    route,
  };
}

function serverConfig(inbound: Record<string, unknown>, route: Record<string, unknown> = {}) {
  return {
    log: { level: "debug" },
    inbounds: [{ type: "shadowsocks", tag: "ss-in", listen: "127.0.0.1", listen_port: 0, ...inbound }],
    outbounds: [{ type: "direct", tag: "direct" }],
    route,
  };
}

/** A DNS query through a SOCKS5 UDP association on `socksPort`, answered by dnsmasq. */
async function dnsOverSocksUdp(socksPort: number, dnsPort: number, id: number): Promise<void> {
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: socksPort });
  await client.send({ host: "127.0.0.1", port: dnsPort }, dnsQuery(`n${id}.test.lan`, id));
  const got = await client.receive(5000);
  assert.ok(got, "a DNS answer came back through the UDP relay");
  assert.deepEqual(dnsAnswers(got.payload), { id, addresses: ["127.0.0.1"] });
}

for (const method of AEAD) {
  Deno.test(`shadowsocks outbound ${method} → ss-server: TCP download and UDP DNS`, async () => {
    await using o = blobOrigin();
    await using dns = await startDnsmasq();
    await using ss = await startSsServer({ method, password: PASSWORD });
    await using svc = await startEngine(clientConfig({ server_port: ss.port, method, password: PASSWORD }));
    const p = inboundPort(svc, "in");
    await curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body);
    await dnsOverSocksUdp(p, dns.port, 7);
    assert.ok(svc.logs.some((l) => l.includes("via ss")), svc.logs.join(""));
  });

  Deno.test(`ss-local ${method} → shadowsocks inbound: TCP download and UDP DNS`, async () => {
    await using o = blobOrigin();
    await using dns = await startDnsmasq();
    await using svc = await startEngine(serverConfig({ method, password: PASSWORD }));
    await using local = await startSsLocal({
      method,
      password: PASSWORD,
      serverPort: inboundPort(svc, "ss-in"),
    });
    await curlBytes(["-x", `socks5h://127.0.0.1:${local.port}`], o.url(), o.body);
    await dnsOverSocksUdp(local.port, dns.port, 9);
  });
}

Deno.test("shadowsocks outbound → v2ray shadowsocks inbound (aes-128-gcm): TCP and UDP", async () => {
  await using o = blobOrigin();
  await using dns = await startDnsmasq();
  await using v2 = await startV2raySsServer({ method: "aes-128-gcm", password: PASSWORD });
  await using svc = await startEngine(
    clientConfig({ server_port: v2.port, method: "aes-128-gcm", password: PASSWORD }),
  );
  const p = inboundPort(svc, "in");
  await curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body);
  await dnsOverSocksUdp(p, dns.port, 11);
});

Deno.test("shadowsocks outbound with obfs-local → ss-server with obfs-server", async () => {
  await using o = blobOrigin();
  await using ss = await startSsServer({
    method: "aes-128-gcm",
    password: PASSWORD,
    plugin: "obfs-server",
    pluginOpts: "obfs=http",
  });
  await using svc = await startEngine(clientConfig({
    server_port: ss.port,
    method: "aes-128-gcm",
    password: PASSWORD,
    plugin: "obfs-local",
    plugin_opts: "obfs=http;obfs-host=www.example.com",
  }));
  await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`], o.url(), o.body);
  assert.ok(svc.logs.some((l) => l.includes('plugin "obfs-local"')), svc.logs.join(""));
});

Deno.test("shadowsocks outbound with v2ray-plugin → ss-server with ss-v2ray-plugin; the child dies on stop", async () => {
  await using o = blobOrigin();
  await using ss = await startSsServer({
    method: "chacha20-ietf-poly1305",
    password: PASSWORD,
    plugin: "ss-v2ray-plugin",
    pluginOpts: "server;path=/ss-ws",
  });
  const svc = await startEngine(clientConfig({
    server_port: ss.port,
    method: "chacha20-ietf-poly1305",
    password: PASSWORD,
    plugin: "v2ray-plugin",
    plugin_opts: "path=/ss-ws;host=localhost",
  }));
  let pluginPort = 0;
  try {
    await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`], o.url(), o.body);
    const line = svc.logs.find((l) => l.includes('plugin "v2ray-plugin"'));
    pluginPort = Number(line?.match(/127\.0\.0\.1:(\d+)/)?.[1]);
    assert.ok(pluginPort > 0, svc.logs.join(""));
  } finally {
    await svc[Symbol.asyncDispose]();
  }
  await assert.rejects(
    Deno.connect({ hostname: "127.0.0.1", port: pluginPort }),
    "the plugin is gone after stop",
  );
});

Deno.test("shadowsocks plugin with detour is refused with a clear error", async () => {
  await assert.rejects(
    startEngine({
      outbounds: [
        { type: "direct", tag: "d" },
        {
          type: "shadowsocks",
          tag: "ss",
          server: "127.0.0.1",
          server_port: 1,
          method: "aes-128-gcm",
          password: PASSWORD,
          plugin: "obfs-local",
          detour: "d",
        },
      ],
    }),
    /\/outbounds\/1: plugin: "obfs-local" runs as its own process.*"detour"/,
  );
});

const METHODS_2022: [string, number][] = [
  ["2022-blake3-aes-128-gcm", 16],
  ["2022-blake3-aes-256-gcm", 32],
  ["2022-blake3-chacha20-poly1305", 32],
];

for (const [method, size] of METHODS_2022) {
  Deno.test(`shadowsocks ${method} svc ↔ svc: TCP download, UDP DNS, half-close`, async () => {
    await using o = blobOrigin();
    await using dns = await startDnsmasq();
    const psk = key(size);
    await using server = await startEngine(serverConfig({ method, password: psk }));
    await using client = await startEngine(
      clientConfig({ server_port: inboundPort(server, "ss-in"), method, password: psk }),
    );
    const p = inboundPort(client, "in");
    await curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body);
    await dnsOverSocksUdp(p, dns.port, 21);
    await halfClose(p, o.port);
  });
}

/** The client sends its request and shuts its write side; the whole response must still arrive. */
async function halfClose(socksPort: number, originPort: number): Promise<void> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port: socksPort });
  try {
    await c.write(new Uint8Array([5, 1, 0]));
    const buf = new Uint8Array(64 * 1024);
    await c.read(buf);
    await c.write(new Uint8Array([5, 1, 0, 1, 127, 0, 0, 1, originPort >> 8, originPort & 255]));
    let got = 0;
    while (got < 10) got += (await c.read(buf.subarray(got)))!;
    await c.write(new TextEncoder().encode("GET /hello HTTP/1.0\r\n\r\n"));
    await c.closeWrite();
    let text = "";
    for (let n; (n = await c.read(buf)) !== null;) text += new TextDecoder().decode(buf.subarray(0, n));
    assert.match(text, /^HTTP\/1\.[01] 200/);
    assert.match(text, /hello from 127\.0\.0\.1/);
  } finally {
    c.close();
  }
}

Deno.test("shadowsocks AEAD svc ↔ svc: half-close keeps the response (ss-libev loses it)", async () => {
  await using o = blobOrigin(1024);
  await using server = await startEngine(serverConfig({ method: "aes-128-gcm", password: PASSWORD }));
  await using client = await startEngine(
    clientConfig({ server_port: inboundPort(server, "ss-in"), method: "aes-128-gcm", password: PASSWORD }),
  );
  await halfClose(inboundPort(client, "in"), o.port);
});

Deno.test("shadowsocks 2022 multi-user: each user's PSK works, auth_user routes, an unknown user is refused", async () => {
  await using o = blobOrigin(256 * 1024);
  const method = "2022-blake3-aes-128-gcm";
  const serverPsk = key(16), alice = key(16), bob = key(16), mallory = key(16);
  await using server = await startEngine({
    ...serverConfig({
      method,
      password: serverPsk,
      users: [{ name: "alice", password: alice }, { name: "bob", password: bob }],
    }),
    outbounds: [{ type: "direct", tag: "direct" }, { type: "block", tag: "blocked" }],
    route: { rules: [{ auth_user: ["bob"], outbound: "blocked" }], final: "direct" },
  });
  const port = inboundPort(server, "ss-in");
  const via = async (password: string) => {
    const c = await startEngine(clientConfig({ server_port: port, method, password }));
    return c;
  };
  await using a = await via(`${serverPsk}:${alice}`);
  await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(a, "in")}`], o.url(), o.body);
  await using b = await via(`${serverPsk}:${bob}`);
  const rb = await curl(["-x", `socks5h://127.0.0.1:${inboundPort(b, "in")}`, o.url("/hello")]);
  assert.notEqual(rb.code, 0, "bob's connections are blocked by the auth_user rule");
  await using m = await via(`${serverPsk}:${mallory}`);
  const rm = await curl([
    "--max-time",
    "3",
    "-x",
    `socks5h://127.0.0.1:${inboundPort(m, "in")}`,
    o.url("/hello"),
  ]);
  assert.notEqual(rm.code, 0, "an unknown user gets nothing");
  await waitFor(
    "the server's log of the refused user",
    () => server.logs.some((l) => l.includes("unknown identity header")),
  );
  // Users swap at run time without rebinding: mallory joins, alice leaves.
  const inbound = server.engine.inbounds.get("ss-in") as unknown as { replaceUsers(u: unknown[]): void };
  inbound.replaceUsers([{ name: "mallory", password: mallory }]);
  await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(m, "in")}`], o.url(), o.body);
  const ra = await curl([
    "--max-time",
    "3",
    "-x",
    `socks5h://127.0.0.1:${inboundPort(a, "in")}`,
    o.url("/hello"),
  ]);
  assert.notEqual(ra.code, 0, "alice was removed");
});

/** The bytes a svc client sends for `GET /hello` to the origin (built with svc's own client). */
async function capturedRequest(method: string, password: string, originPort: number): Promise<Uint8Array> {
  const { clientConn } = await import("../../src/protocol/shadowsocks/client.ts");
  const { methodOf, passwordKeys } = await import("../../src/protocol/shadowsocks/method.ts");
  const chunks: Uint8Array[] = [];
  const sink = {
    read: () => Promise.resolve(null),
    write: (p: Uint8Array) => (chunks.push(p.slice()), Promise.resolve(p.length)),
    closeWrite: () => Promise.resolve(),
    close: () => {},
  };
  const m = methodOf(method);
  const c = clientConn(sink, { host: "127.0.0.1", port: originPort }, {
    method: m,
    keys: passwordKeys(m, password),
  });
  await c.write(new TextEncoder().encode("GET /hello HTTP/1.0\r\n\r\n"));
  return new Uint8Array(chunks.flatMap((b) => [...b]));
}

/** Sends `bytes`, then reads until the server closes or 1.5 s pass; returns the byte count read. */
async function sendRaw(port: number, bytes: Uint8Array, closeAfterMs = 1500): Promise<number> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  const timer = setTimeout(() => c.close(), closeAfterMs);
  let got = 0;
  try {
    await c.write(bytes);
    const buf = new Uint8Array(4096);
    for (let n; (n = await c.read(buf)) !== null;) got += n;
  } catch {
    /* closed by the timer */
  } finally {
    clearTimeout(timer);
    try {
      c.close();
    } catch { /* closed */ }
  }
  return got;
}

for (const [method, password] of [["aes-256-gcm", PASSWORD], ["2022-blake3-aes-128-gcm", key(16)]]) {
  Deno.test(`shadowsocks inbound ${method}: replayed request, garbage and a wrong key get nothing; it keeps serving`, async () => {
    await using o = blobOrigin(1024);
    await using server = await startEngine(serverConfig({ method, password }));
    const port = inboundPort(server, "ss-in");
    const req = await capturedRequest(method, password, o.port);
    assert.ok((await sendRaw(port, req)) > 0, "the first copy is answered");
    await waitFor("the origin served the request", () => o.served("/hello") === 1);
    assert.equal(await sendRaw(port, req, 800), 0, "the replay gets no answer");
    await waitFor(
      "the server's log of the replay",
      () => server.logs.some((l) => l.includes("Replayed salt")),
    );
    const garbage = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919) & 0xff);
    assert.equal(await sendRaw(port, garbage, 800), 0, "garbage gets no answer (drained, not reset)");
    const other = method.startsWith("2022") ? key(16) : "wrong-password";
    assert.equal(await sendRaw(port, await capturedRequest(method, other, o.port), 800), 0, "wrong key");
    assert.equal(o.served("/hello"), 1);
    assert.ok((await sendRaw(port, await capturedRequest(method, password, o.port))) > 0, "still serving");
    await waitFor("the origin served the second request", () => o.served("/hello") === 2);
  });
}
