/**
 * SOCKS5 UDP ASSOCIATE through svc's mixed and socks inbounds to a UDP echo server, with an
 * independent client (tests/support/socks5_udp.ts).
 */
import assert from "node:assert/strict";
import { startEngine } from "../support/engine.ts";
import { inboundPort, udpEcho, waitFor } from "../support/e2e.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";

const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

function config(type: string, listen = "127.0.0.1", extra: Record<string, unknown> = {}) {
  return {
    log: { level: "info" },
    inbounds: [{ type, tag: "in", listen, listen_port: 0, ...extra }],
    outbounds: [{ type: "direct", tag: "direct" }],
  };
}

for (const type of ["mixed", "socks"]) {
  Deno.test(`${type} inbound: UDP ASSOCIATE relays several datagrams, by address and by name`, async () => {
    using echo = udpEcho();
    await using svc = await startEngine(config(type));
    using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "in") });
    assert.equal(client.relay.host, "127.0.0.1", "BND.ADDR is the address the client reached");
    assert.notEqual(client.relay.port, 0);
    for (let i = 0; i < 10; i++) {
      await client.send({ host: "127.0.0.1", port: echo.port }, `packet ${i}`);
      const got = await client.receive();
      assert.equal(text(got?.payload), `packet ${i}`);
      assert.deepEqual(got?.from, { host: "127.0.0.1", port: echo.port });
    }
    // Several in flight at once, then all the echoes.
    const sent = Array.from({ length: 5 }, (_, i) => `burst ${i}`);
    for (const s of sent) await client.send({ host: "127.0.0.1", port: echo.port }, s);
    const got: string[] = [];
    for (let i = 0; i < sent.length; i++) got.push(text((await client.receive())?.payload) ?? "(lost)");
    assert.deepEqual(got.sort(), sent);
    // A domain-name destination: svc resolves it, and answers name the host the client used.
    await client.send({ host: "localhost", port: echo.port }, "by name");
    const named = await client.receive();
    assert.equal(text(named?.payload), "by name");
    assert.deepEqual(named?.from, { host: "localhost", port: echo.port });
    // A large datagram passes whole.
    const big = new Uint8Array(8000).map((_, i) => i & 0xff);
    await client.send({ host: "127.0.0.1", port: echo.port }, big);
    assert.deepEqual((await client.receive())?.payload, big);
    const live = svc.engine.tracker.list();
    assert.equal(live.length, 1, "one tracked UDP association");
    assert.equal(live[0].metadata.network, "udp");
    assert.ok(live[0].counters.up >= 8000 && live[0].counters.down >= 8000, JSON.stringify(live[0].counters));
  });
}

Deno.test("UDP ASSOCIATE ends when the TCP control connection closes", async () => {
  using echo = udpEcho();
  await using svc = await startEngine(config("mixed"));
  const client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "in") });
  try {
    await client.send({ host: "127.0.0.1", port: echo.port }, "before");
    assert.equal(text((await client.receive())?.payload), "before");
    assert.equal(svc.engine.tracker.size, 1);
    client.closeControl();
    await waitFor("the association to leave the tracker", () => svc.engine.tracker.size === 0);
    // The relay socket is closed: its port can be bound again, and nothing answers there.
    await waitFor("the relay port to be released", () => {
      try {
        Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: client.relay.port }).close();
        return true;
      } catch {
        return false;
      }
    });
    await client.send({ host: "127.0.0.1", port: echo.port }, "after");
    assert.equal(await client.receive(200), undefined, "no relay after the control connection closed");
    assert.equal(svc.engine.tracker.totals().up, "before".length);
  } finally {
    client.close();
  }
});

Deno.test("UDP ASSOCIATE with a username and password, and over IPv6", async () => {
  using echo = udpEcho("::1");
  await using svc = await startEngine(
    config("socks", "::1", { users: [{ username: "u", password: "p" }] }),
  );
  const port = inboundPort(svc, "in");
  await assert.rejects(
    Socks5UdpClient.open({ host: "::1", port }, { username: "u", password: "wrong" }),
    /login refused/,
  );
  using client = await Socks5UdpClient.open({ host: "::1", port }, { username: "u", password: "p" });
  assert.equal(client.relay.host, "::1");
  await client.send({ host: "::1", port: echo.port }, "over ipv6");
  const got = await client.receive();
  assert.equal(text(got?.payload), "over ipv6");
  assert.deepEqual(got?.from, { host: "::1", port: echo.port });
  assert.equal(svc.engine.tracker.list()[0]?.metadata.user, "u");
});

Deno.test("stopping the engine ends live UDP associations and TCP tunnels promptly", async () => {
  using echo = udpEcho();
  const svc = await startEngine(config("mixed"));
  const client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "in") });
  const tunnel = await Deno.connect({ hostname: "127.0.0.1", port: inboundPort(svc, "in") });
  try {
    await client.send({ host: "127.0.0.1", port: echo.port }, "live");
    assert.equal(text((await client.receive())?.payload), "live");
    const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const target = (server.addr as Deno.NetAddr).port;
    await tunnel.write(new TextEncoder().encode(`CONNECT 127.0.0.1:${target} HTTP/1.1\r\nHost: x\r\n\r\n`));
    const upstream = await server.accept();
    server.close();
    await tunnel.read(new Uint8Array(256));
    assert.equal(svc.engine.tracker.size, 2);
    const start = performance.now();
    await svc.engine.stop();
    const took = performance.now() - start;
    assert.ok(took < 500, `stop took ${took.toFixed(0)} ms`);
    await waitFor("the tracker to empty", () => svc.engine.tracker.size === 0, 500);
    // Both ends see the connection end.
    assert.equal(await tunnel.read(new Uint8Array(16)).catch(() => null), null);
    assert.equal(await upstream.read(new Uint8Array(16)).catch(() => null), null);
    upstream.close();
    await waitFor("the relay port to be released", () => {
      try {
        Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: client.relay.port }).close();
        return true;
      } catch {
        return false;
      }
    });
  } finally {
    client.close();
    tunnel.close();
    await svc.engine.stop();
  }
});

Deno.test({
  name: "engine.stop() resolves only once every tracked connection has ended",
  async fn() {
    using echo = udpEcho();
    const svc = await startEngine(config("mixed"));
    using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "in") });
    try {
      await client.send({ host: "127.0.0.1", port: echo.port }, "live");
      assert.equal(text((await client.receive())?.payload), "live");
      await svc.engine.stop();
      assert.deepEqual(svc.engine.tracker.list(), []);
    } finally {
      await svc.engine.stop();
    }
  },
});
