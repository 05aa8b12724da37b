import assert from "node:assert/strict";
import { DnsError } from "../../common/errors.ts";
import { firstQuestion, messageId } from "./packet.ts";
import { TcpTransport } from "./tcp.ts";
import { addresses, answer, fakeTcpServer, query, testDialer } from "./testing.ts";

const signal = () => AbortSignal.timeout(3000);

Deno.test("tcp: pipelines queries on one connection, answers matched by id in any order", async () => {
  const held: Array<() => void> = [];
  const server = fakeTcpServer(async (q) => {
    const n = Number(firstQuestion(q)!.name.split(".")[0].slice(1));
    // Hold every answer until all three queries arrived, then answer in reverse order.
    await new Promise<void>((r) => {
      held.push(r);
      if (held.length === 3) held.reverse().forEach((f) => setTimeout(f, 0));
    });
    return [answer(q, [`10.0.0.${n}`])];
  });
  const t = new TcpTransport("t", { host: "127.0.0.1", port: server.port }, testDialer());
  try {
    const rs = await Promise.all([1, 2, 3].map((n) => t.exchange(query(`h${n}.test.lan`, "A", n), signal())));
    assert.deepEqual(rs.map((r) => addresses(r)[0]), ["10.0.0.1", "10.0.0.2", "10.0.0.3"]);
    assert.deepEqual(rs.map(messageId), [1, 2, 3]);
    assert.equal(server.connections(), 1);
  } finally {
    t.close();
    await server.close();
  }
});

Deno.test("tcp: reconnects after the server closes the connection", async () => {
  const server = fakeTcpServer((q) => [answer(q, ["10.0.0.5"])], { closeAfter: 1 });
  const t = new TcpTransport("t", { host: "127.0.0.1", port: server.port }, testDialer());
  try {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(addresses(await t.exchange(query("a.test.lan"), signal())), ["10.0.0.5"]);
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(server.connections(), 3);
  } finally {
    t.close();
    await server.close();
  }
});

Deno.test("tcp: a refused connection and a silent server are DnsErrors", async () => {
  const server = fakeTcpServer(() => []);
  const port = server.port;
  const t = new TcpTransport("t", { host: "127.0.0.1", port }, testDialer());
  try {
    await assert.rejects(t.exchange(query("a.test.lan"), AbortSignal.timeout(150)), DnsError);
  } finally {
    t.close();
    await server.close();
  }
  const dead = new TcpTransport("t", { host: "127.0.0.1", port }, testDialer());
  await assert.rejects(dead.exchange(query("a.test.lan"), signal()), DnsError);
  dead.close();
});
