import assert from "node:assert/strict";
import { openUdpSocket, type UdpSocket } from "./udp_batch.ts";

/** Fails instead of hanging when a datagram went missing. */
async function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => reject(new Error("no datagram in time")), ms)
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Echoes every datagram back to its sender, prefixed with the sender's key type. */
function echo(s: UdpSocket): Promise<void> {
  return s.run((data, key) => {
    const out = new Uint8Array(data.length + 1);
    out[0] = typeof key === "number" ? 4 : 6;
    out.set(data, 1);
    s.send(out, s.peer());
  });
}

for (const batch of [true, false]) {
  for (const host of ["127.0.0.1", "::1"]) {
    Deno.test(`udp socket (${batch ? "batched" : "Deno"}) on ${host}: many datagrams echo back to their senders`, async () => {
      const server = openUdpSocket(host, 0, { batch });
      assert.equal(server.kind, batch ? "batch" : "deno");
      assert.ok(server.addr.port > 0);
      const done = echo(server);
      const clients = [0, 1, 2].map(() => Deno.listenDatagram({ transport: "udp", hostname: host, port: 0 }));
      try {
        const to: Deno.NetAddr = { transport: "udp", hostname: host, port: server.addr.port };
        for (const [k, c] of clients.entries()) {
          for (let i = 0; i < 30; i++) await c.send(Uint8Array.of(k, i, ...new Uint8Array(i * 4)), to);
        }
        for (const [k, c] of clients.entries()) {
          const seen = new Set<number>();
          while (seen.size < 30) {
            const [data, from] = await within(c.receive(), 5000);
            assert.equal((from as Deno.NetAddr).port, server.addr.port);
            if (batch) assert.equal(data[0], host.includes(":") ? 6 : 4);
            assert.equal(data[1], k, "answered to its own sender");
            assert.equal(data.length, 3 + data[2] * 4);
            seen.add(data[2]);
          }
        }
      } finally {
        for (const c of clients) c.close();
        await server.close();
        await done;
      }
    });
  }
}

Deno.test("udp socket: a 60000-byte datagram arrives whole", async () => {
  const server = openUdpSocket("127.0.0.1", 0);
  let got = 0;
  const done = server.run((data) => void (got = data.length));
  const c = Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: 0 });
  try {
    await c.send(new Uint8Array(60000), { transport: "udp", hostname: "127.0.0.1", port: server.addr.port });
    for (let i = 0; i < 100 && got === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(got, 60000);
  } finally {
    c.close();
    await server.close();
    await done;
  }
});

Deno.test("udp socket: binding a port in use fails with AddrInUse", () => {
  const taken = Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: 0 });
  try {
    assert.throws(() => openUdpSocket("127.0.0.1", (taken.addr as Deno.NetAddr).port), Deno.errors.AddrInUse);
  } finally {
    taken.close();
  }
});
