/**
 * The trojan inbound and outbound against real peers (PEERS.md): svc → trojan-gfw server,
 * trojan-gfw client → svc, svc → v2ray 4.34 trojan+TLS, svc ↔ svc; each carries a curl download
 * checked byte for byte, and DNS to dnsmasq over UDP where the peer carries UDP; trojan over ws
 * (plain and TLS) svc ↔ svc. Then the inbound's fallback (curl over TLS reaches an HTTP origin),
 * ALPN fallback, wrong passwords, garbage and users swapped at run time.
 */
import assert from "node:assert/strict";
import type { UsersReloadable } from "../../src/adapter/mod.ts";
import { blobOrigin, curlBytes } from "../support/blob_origin.ts";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startDnsmasq } from "../support/peers.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";
import {
  certDir,
  dnsAnswers,
  dnsQuery,
  startTrojanGfwClient,
  startTrojanGfwServer,
  startV2rayTrojanServer,
} from "../support/trojan_peers.ts";

const PASSWORD = "test-password";

function clientConfig(serverPort: number, ca: string, extra: Record<string, unknown> = {}) {
  return {
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{
      type: "trojan",
      tag: "trojan-out",
      server: "127.0.0.1",
      server_port: serverPort,
      password: PASSWORD,
      tls: { enabled: true, server_name: "localhost", certificate: [ca] },
      ...extra,
    }],
  };
}

function serverConfig(certs: string, extra: Record<string, unknown> = {}) {
  return {
    log: { level: "info" },
    inbounds: [{
      type: "trojan",
      tag: "trojan-in",
      listen: "127.0.0.1",
      listen_port: 0,
      users: [{ name: "alice", password: PASSWORD }],
      tls: { enabled: true, certificate_path: `${certs}/leaf.pem`, key_path: `${certs}/leaf.key` },
      ...extra,
    }],
    outbounds: [{ type: "direct", tag: "direct" }],
  };
}

/** A DNS question for test.lan to dnsmasq through a SOCKS5 UDP ASSOCIATE proxy. */
async function dnsThrough(proxyPort: number, dnsPort: number): Promise<void> {
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: proxyPort });
  for (let id = 1; id <= 3; id++) {
    await client.send({ host: "127.0.0.1", port: dnsPort }, dnsQuery(`n${id}.test.lan`, id));
    const got = await client.receive(3000);
    assert.ok(got, `answer ${id} through the proxy`);
    assert.deepEqual(dnsAnswers(got.payload), { id, addresses: ["127.0.0.1"] });
    assert.deepEqual(got.from, { host: "127.0.0.1", port: dnsPort });
  }
}

Deno.test("trojan: svc outbound → trojan-gfw server (TCP download and UDP DNS)", async () => {
  await using certs = await certDir();
  await using o = blobOrigin();
  await using dns = await startDnsmasq();
  await using gfw = await startTrojanGfwServer({
    password: PASSWORD,
    certs: certs.path,
    fallbackPort: o.port,
  });
  await using svc = await startEngine(clientConfig(gfw.port, certs.ca));
  const proxy = `socks5h://127.0.0.1:${inboundPort(svc, "in")}`;
  await curlBytes(["-x", proxy], o.url(), o.body);
  await dnsThrough(inboundPort(svc, "in"), dns.port);
  assert.ok(svc.logs.some((l) => l.includes("via trojan-out")), svc.logs.join(""));
});

Deno.test("trojan: trojan-gfw client → svc inbound (TCP download and UDP DNS)", async () => {
  await using certs = await certDir();
  await using o = blobOrigin();
  await using dns = await startDnsmasq();
  await using svc = await startEngine(serverConfig(certs.path));
  await using gfw = await startTrojanGfwClient({
    password: PASSWORD,
    certs: certs.path,
    serverPort: inboundPort(svc, "trojan-in"),
  });
  await curlBytes(["-x", `socks5h://127.0.0.1:${gfw.port}`], o.url(), o.body);
  await dnsThrough(gfw.port, dns.port);
  assert.ok(svc.logs.some((l) => l.includes("trojan-in") && l.includes("alice")), svc.logs.join(""));
});

Deno.test("trojan: svc outbound → v2ray 4.34 trojan+TLS inbound (TCP download and UDP DNS)", async () => {
  await using certs = await certDir();
  await using o = blobOrigin();
  await using dns = await startDnsmasq();
  await using v2 = await startV2rayTrojanServer({ password: PASSWORD, certs: certs.path });
  await using svc = await startEngine(clientConfig(v2.port, certs.ca));
  await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`], o.url(), o.body);
  await dnsThrough(inboundPort(svc, "in"), dns.port);
});

Deno.test("trojan: svc outbound → svc inbound, TCP and UDP, user name in the logs", async () => {
  await using certs = await certDir();
  await using o = blobOrigin();
  await using dns = await startDnsmasq();
  await using server = await startEngine(serverConfig(certs.path));
  await using svc = await startEngine(clientConfig(inboundPort(server, "trojan-in"), certs.ca));
  await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`], o.url(), o.body);
  await dnsThrough(inboundPort(svc, "in"), dns.port);
  assert.ok(server.logs.some((l) => l.includes("alice")), server.logs.join(""));
});

Deno.test("trojan+ws: svc outbound → svc inbound over WebSocket, plain and with TLS (TCP and UDP)", async () => {
  await using certs = await certDir();
  await using o = blobOrigin(2 * 1024 * 1024 + 5);
  await using dns = await startDnsmasq();
  const ws = { transport: { type: "ws", path: "/tj", headers: { Host: "example.test" } } };
  for (const tls of [true, false]) {
    const serverExtra = tls ? ws : { ...ws, tls: undefined };
    const clientExtra = tls ? ws : { ...ws, tls: undefined };
    await using server = await startEngine(serverConfig(certs.path, serverExtra));
    await using svc = await startEngine(
      clientConfig(inboundPort(server, "trojan-in"), certs.ca, clientExtra),
    );
    for (let i = 0; i < 2; i++) {
      await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`], o.url(), o.body);
    }
    await dnsThrough(inboundPort(svc, "in"), dns.port);
    assert.ok(server.logs.some((l) => l.includes("alice")), server.logs.join(""));
    // The WebSocket really is on the wire: a client without it is not understood.
    await using bare = await startEngine(
      clientConfig(inboundPort(server, "trojan-in"), certs.ca, tls ? {} : { tls: undefined }),
    );
    await assert.rejects(
      curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(bare, "in")}`], o.url(), o.body),
    );
  }
});

Deno.test("trojan inbound: fallback to an HTTP origin and fallback by ALPN (curl over TLS)", async () => {
  await using certs = await certDir();
  await using byDefault = blobOrigin(1024);
  await using forH1 = blobOrigin(1024);
  await using server = await startEngine(serverConfig(certs.path, {
    tls: {
      enabled: true,
      alpn: ["http/1.1"],
      certificate_path: `${certs.path}/leaf.pem`,
      key_path: `${certs.path}/leaf.key`,
    },
    fallback: { server: "127.0.0.1", server_port: byDefault.port },
    fallback_for_alpn: { "http/1.1": { server: "127.0.0.1", server_port: forH1.port } },
  }));
  const port = inboundPort(server, "trojan-in");
  const tlsArgs = ["--cacert", `${certs.path}/ca.pem`];
  const h1 = await curl([...tlsArgs, "--http1.1", `https://localhost:${port}/hello`]);
  assert.equal(h1.code, 0, h1.stderr);
  assert.equal(h1.stdout, `hello from 127.0.0.1:${forH1.port}\n`);
  const noAlpn = await curl([...tlsArgs, "--no-alpn", `https://localhost:${port}/hello`]);
  assert.equal(noAlpn.code, 0, noAlpn.stderr);
  assert.equal(noAlpn.stdout, `hello from 127.0.0.1:${byDefault.port}\n`);
  // A fallback carries whole downloads, and trojan clients are still served beside it.
  await curlBytes([...tlsArgs, "--http1.1"], `https://localhost:${port}/blob`, forH1.body);
  await using client = await startEngine(clientConfig(port, certs.ca));
  await curlBytes(
    ["-x", `socks5h://127.0.0.1:${inboundPort(client, "in")}`],
    byDefault.url(),
    byDefault.body,
  );
});

Deno.test("trojan inbound: wrong password and garbage are closed without fallback; users swap at run time", async () => {
  await using certs = await certDir();
  await using o = blobOrigin(1024);
  await using server = await startEngine(serverConfig(certs.path));
  const port = inboundPort(server, "trojan-in");
  await using wrong = await startEngine(clientConfig(port, certs.ca, { password: "not-the-password" }));
  const proxy = (e: typeof wrong) => `socks5h://127.0.0.1:${inboundPort(e, "in")}`;
  const refused = await curl(["-x", proxy(wrong), o.url("/hello")]);
  assert.notEqual(refused.code, 0, "a wrong password must not reach the origin");
  assert.equal(o.served("/hello"), 0);
  // Garbage over TLS: closed (no fallback), no answer bytes.
  const garbage = await curl(["--cacert", `${certs.path}/ca.pem`, `https://localhost:${port}/hello`]);
  assert.notEqual(garbage.code, 0);
  assert.equal(garbage.stdout, "");
  // The inbound still serves the right password.
  await using right = await startEngine(clientConfig(port, certs.ca));
  assert.equal((await curl(["-x", proxy(right), o.url("/hello")])).code, 0);
  // Swap users: the old password stops working, the new one works, on the same socket.
  const inbound = server.engine.inbounds.get("trojan-in") as unknown as UsersReloadable;
  assert.throws(() => inbound.replaceUsers([{ name: "x" }]), /users\/0\/password/);
  inbound.replaceUsers([{ name: "bob", password: "not-the-password" }]);
  assert.deepEqual(inbound.currentUsers(), [{ name: "bob", password: "not-the-password" }]);
  assert.notEqual((await curl(["-x", proxy(right), o.url("/hello")])).code, 0);
  const nowOk = await curl(["-x", proxy(wrong), o.url("/hello")]);
  assert.equal(nowOk.code, 0, nowOk.stderr);
  assert.equal(nowOk.stdout, `hello from 127.0.0.1:${o.port}\n`);
  assert.equal(inboundPort(server, "trojan-in"), port);
});
