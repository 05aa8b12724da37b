import assert from "node:assert/strict";
import { DnsError } from "../../common/errors.ts";
import { isTruncated, messageId, withId } from "./packet.ts";
import { UdpTransport } from "./udp.ts";
import { addresses, answer, fakeTcpServer, fakeUdpServer, query, testDialer } from "./testing.ts";
import { decodeMessage, firstQuestion } from "./packet.ts";

const signal = () => AbortSignal.timeout(3000);

Deno.test("udp: answers with the query's id, skipping stray packets", async () => {
  const server = fakeUdpServer((q) => [
    withId(answer(q, ["10.0.0.9"]), (messageId(q) + 1) & 0xffff), // wrong id: stray
    new Uint8Array([1, 2, 3]), // junk
    answer(q, ["10.0.0.1"]),
  ]);
  const t = new UdpTransport("u", { host: "127.0.0.1", port: server.port }, testDialer());
  try {
    const q = query("a.test.lan", "A", 4321);
    const r = await t.exchange(q, signal());
    assert.equal(messageId(r), 4321);
    assert.deepEqual(addresses(r), ["10.0.0.1"]);
    // The session is reused.
    assert.deepEqual(addresses(await t.exchange(query("b.test.lan"), signal())), ["10.0.0.1"]);
  } finally {
    t.close();
    server.close();
  }
});

Deno.test("udp: a malformed answer fails that query alone", async () => {
  const server = fakeUdpServer(async (q) => {
    if (firstQuestion(q)!.name === "bad.test.lan") {
      const r = answer(q, ["10.0.0.2"]);
      return [r.subarray(0, r.length - 2)];
    }
    await new Promise((r) => setTimeout(r, 50));
    return [answer(q, ["10.0.0.3"])];
  });
  const t = new UdpTransport("u", { host: "127.0.0.1", port: server.port }, testDialer());
  try {
    const [bad, good] = await Promise.allSettled([
      t.exchange(query("bad.test.lan"), signal()),
      t.exchange(query("good.test.lan"), signal()),
    ]);
    assert.equal(bad.status, "rejected");
    assert.ok((bad as PromiseRejectedResult).reason instanceof DnsError);
    assert.equal(good.status, "fulfilled");
    assert.deepEqual(addresses((good as PromiseFulfilledResult<Uint8Array>).value), ["10.0.0.3"]);
  } finally {
    t.close();
    server.close();
  }
});

Deno.test("udp: a silent server times out with DnsError at the signal", async () => {
  const server = fakeUdpServer(() => []);
  const t = new UdpTransport("u", { host: "127.0.0.1", port: server.port }, testDialer());
  try {
    const started = Date.now();
    await assert.rejects(t.exchange(query("a.test.lan"), AbortSignal.timeout(150)), (e) => {
      assert.ok(e instanceof DnsError);
      assert.match(e.message, /timed out/);
      return true;
    });
    assert.ok(Date.now() - started < 1000);
  } finally {
    t.close();
    server.close();
  }
});

Deno.test("udp: a truncated answer is asked again over TCP", async () => {
  const udp = fakeUdpServer((q) => {
    const r = answer(q, []);
    r[2] |= 0x02; // TC
    return [r];
  });
  // Same port number for TCP is not guaranteed free: listen TCP first, then UDP on its port.
  const tcp = fakeTcpServer((q) => [answer(q, ["10.1.1.1", "10.1.1.2"])]);
  udp.close();
  const udp2 = (() => {
    const sock = Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: tcp.port });
    (async () => {
      try {
        for await (const [data, addr] of sock) {
          const r = answer(data, []);
          r[2] |= 0x02;
          assert.ok(isTruncated(r));
          await sock.send(r, addr);
        }
      } catch { /* closed */ }
    })();
    return sock;
  })();
  const t = new UdpTransport("u", { host: "127.0.0.1", port: tcp.port }, testDialer());
  try {
    const q = query("big.test.lan", "A", 77);
    const r = await t.exchange(q, signal());
    assert.equal(messageId(r), 77);
    assert.equal(isTruncated(r), false);
    assert.deepEqual(addresses(r), ["10.1.1.1", "10.1.1.2"]);
    assert.equal(decodeMessage(r).questions![0].name, "big.test.lan");
    assert.equal(tcp.connections(), 1);
  } finally {
    t.close();
    udp2.close();
    await tcp.close();
  }
});
