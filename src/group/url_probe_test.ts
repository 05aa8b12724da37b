/**
 * The URL test over real loopback sockets: the member is a plain TCP dialer (as `direct` is), the
 * origins are Deno servers (HTTP, HTTPS with an openssl-made CA) and raw listeners that misbehave.
 */
import assert from "node:assert/strict";
import type { Address, Conn, Outbound, PacketConn } from "../adapter/mod.ts";
import { buildClientLayers } from "../transport/stack.ts";
import { makeTestCertificates } from "../../tests/support/certs.ts";
import { systemClock } from "./clock.ts";
import { urlProbe } from "./url_probe.ts";

const tcpMember: Outbound = {
  type: "direct",
  tag: "tcp",
  networks: ["tcp"],
  dependencies: [],
  dial: (d: Address): Promise<Conn> => Deno.connect({ hostname: d.host, port: d.port }),
  listenPacket: (): Promise<PacketConn> => Promise.reject(new Error("no udp")),
};

const probe = urlProbe({ clock: systemClock, clientLayers: (o) => buildClientLayers(o, {}) });

/** A raw listener that answers each connection with `reply` (after reading the request) or not at all. */
function rawServer(reply: string | null, close = false) {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const c of l) {
      conns.push(c);
      await c.read(new Uint8Array(4096)).catch(() => null);
      if (reply !== null) await c.write(new TextEncoder().encode(reply)).catch(() => {});
      if (close) c.close();
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    close: () => {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

Deno.test("url probe: times an HTTP GET to the response headers, slower origins measure slower", async () => {
  let seen: { search: string; host: string | null } | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen = { search: new URL(req.url).search, host: req.headers.get("host") };
    if (new URL(req.url).pathname === "/slow") await new Promise((r) => setTimeout(r, 300));
    return new Response(null, { status: 204 });
  });
  const port = server.addr.port;
  try {
    const fast = await probe(tcpMember, `http://127.0.0.1:${port}/generate_204?x=1`, 2000);
    assert.equal(seen?.search, "?x=1");
    assert.equal(seen?.host, `127.0.0.1:${port}`);
    const slow = await probe(tcpMember, `http://127.0.0.1:${port}/slow`, 2000);
    assert.ok(fast < 250, `fast ${fast}`);
    assert.ok(slow >= 290, `slow ${slow}`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("url probe: https through TLS over the member's stream, with the configured trust", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await makeTestCertificates(dir);
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen() {},
      cert: await Deno.readTextFile(`${dir}/leaf.pem`),
      key: await Deno.readTextFile(`${dir}/leaf.key`),
    }, () => new Response(null, { status: 204 }));
    const url = `https://localhost:${server.addr.port}/generate_204`;
    try {
      const ca = await Deno.readTextFile(`${dir}/ca.pem`);
      const trusted = urlProbe({
        clock: systemClock,
        clientLayers: (o) =>
          buildClientLayers(o, {
            trust: { store: "none", certificates: [ca], path: "" },
          }),
      });
      const delay = await trusted(tcpMember, url, 3000);
      assert.ok(delay > 0 && delay < 3000);
      // The default trust does not know this CA: the TLS handshake fails.
      await assert.rejects(() => probe(tcpMember, url, 3000));
    } finally {
      await server.shutdown();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("url probe: not HTTP, closed early, silence and bad URLs fail with a reason", async () => {
  const junk = rawServer("SSH-2.0-OpenSSH\r\n\r\n");
  const closes = rawServer(null, true);
  const silent = rawServer(null);
  const huge = rawServer("HTTP/1.1 200 OK\r\n" + "x: y\r\n".repeat(4000));
  try {
    await assert.rejects(() => probe(tcpMember, `http://127.0.0.1:${junk.port}/`, 2000), /not HTTP/);
    await assert.rejects(
      () => probe(tcpMember, `http://127.0.0.1:${closes.port}/`, 2000),
      /closed before the response headers/,
    );
    const t0 = performance.now();
    await assert.rejects(() => probe(tcpMember, `http://127.0.0.1:${silent.port}/`, 300), /timed out/);
    assert.ok(performance.now() - t0 < 2000);
    await assert.rejects(() => probe(tcpMember, `http://127.0.0.1:${huge.port}/`, 2000), /too large/);
    await assert.rejects(() => probe(tcpMember, "ftp://127.0.0.1/", 2000), /must be http or https/);
  } finally {
    for (const s of [junk, closes, silent, huge]) s.close();
  }
});
