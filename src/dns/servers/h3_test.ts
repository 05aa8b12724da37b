/**
 * The h3 transport against a minimal HTTP/3 DoH server written here on Deno's QUIC listener, with
 * a CA and a separate leaf made by openssl (rustls refuses a CA used as the leaf).
 */
import assert from "node:assert/strict";
import { makeTestCertificates } from "../../../tests/support/certs.ts";
import { DnsError } from "../../common/errors.ts";
import { DnsServer } from "../../config/model/dns_server.ts";
import {
  decodeFieldSection,
  encodeFieldSection,
  encodeFrame,
  encodeSettings,
  encodeVarint,
  type Field,
  FRAME_DATA,
  FRAME_HEADERS,
  FrameReader,
  huffmanEncode,
} from "./http3_frames.ts";
import { createTransport } from "./mod.ts";
import { addresses, answer, query, testDialer } from "./testing.ts";

interface Seen {
  fields: Field[];
  query: Uint8Array;
}

/** A tiny HTTP/3 DoH server: answers 127.0.0.1, or `status` when it is not 200. */
function startServer(cert: string, key: string, opts: { status?: string } = {}) {
  const endpoint = new Deno.QuicEndpoint({ hostname: "127.0.0.1", port: 0 });
  const listener = endpoint.listen({ cert, key, alpnProtocols: ["h3"] });
  const seen: Seen[] = [];
  let connections = 0;
  const conns = new Set<Deno.QuicConn>();
  const serveStream = async (s: Deno.QuicBidirectionalStream) => {
    const frames = new FrameReader();
    frames.push(new Uint8Array(await new Response(s.readable).arrayBuffer()));
    let fields: Field[] = [];
    let q: Uint8Array = new Uint8Array(0);
    for (let f = frames.next(); f; f = frames.next()) {
      if (f.type === FRAME_HEADERS) fields = decodeFieldSection(f.payload);
      if (f.type === FRAME_DATA) q = f.payload;
    }
    seen.push({ fields, query: q });
    const w = s.writable.getWriter();
    const status = opts.status ?? "200";
    const server = huffmanEncode(new TextEncoder().encode("svc-test"));
    const headers = new Uint8Array([
      ...encodeFieldSection([[":status", status], ["content-type", "application/dns-message"]]),
      0x5f,
      92 - 15,
      0x80 | server.length,
      ...server, // server: svc-test, Huffman-coded
    ]);
    // An interim 103, a reserved frame type, then the answer split over two DATA frames.
    await w.write(encodeFrame(FRAME_HEADERS, encodeFieldSection([[":status", "103"]])));
    await w.write(encodeFrame(0x21, new Uint8Array(5)));
    await w.write(encodeFrame(FRAME_HEADERS, headers));
    if (status === "200") {
      const r = answer(q, ["127.0.0.1"]);
      await w.write(encodeFrame(FRAME_DATA, r.subarray(0, 5)));
      await w.write(encodeFrame(FRAME_DATA, r.subarray(5)));
    }
    await w.close();
  };
  const serveConn = async (conn: Deno.QuicConn) => {
    conns.add(conn);
    // The server's own control stream (the client reads and drops it) and one reserved stream type.
    const control = (await conn.createUnidirectionalStream()).getWriter();
    await control.write(new Uint8Array([0x00, ...encodeSettings([[6, 16384]])]));
    const grease = (await conn.createUnidirectionalStream()).getWriter();
    await grease.write(new Uint8Array([...encodeVarint(0x21), 1, 2, 3]));
    await grease.close();
    for await (const s of conn.incomingBidirectionalStreams) serveStream(s).catch(() => {});
  };
  const loop = (async () => {
    try {
      for await (const incoming of listener) {
        const conn = await incoming.accept();
        connections++;
        serveConn(conn).catch(() => {});
      }
    } catch { /* closed */ }
  })();
  return {
    port: (endpoint.addr as Deno.NetAddr).port,
    seen,
    connections: () => connections,
    async close() {
      for (const c of conns) c.close({ closeCode: 0x100, reason: "" });
      endpoint.close();
      await loop;
    },
  };
}

Deno.test("h3 transport: DoH over HTTP/3 against a minimal server", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "svc-h3-" });
  try {
    await makeTestCertificates(dir);
    const cert = await Deno.readTextFile(`${dir}/leaf.pem`);
    const key = await Deno.readTextFile(`${dir}/leaf.key`);
    const deps = { dialer: testDialer(), transports: () => undefined };
    const make = (port: number, extra: Record<string, unknown> = {}) =>
      createTransport(
        DnsServer.parse({
          type: "h3",
          server: "127.0.0.1",
          server_port: port,
          tls: { server_name: "localhost", certificate_path: `${dir}/ca.pem` },
          ...extra,
        }),
        deps,
      );

    await t.step("answers, with id restored, over one reused connection", async () => {
      const server = startServer(cert, key);
      const tr = make(server.port, { path: "/q", headers: { "X-Test": "yes" } });
      try {
        const r1 = await tr.exchange(query("a.test", "A", 0x4321), AbortSignal.timeout(5000));
        assert.equal((r1[0] << 8) | r1[1], 0x4321);
        assert.deepEqual(addresses(r1), ["127.0.0.1"]);
        const r2 = await tr.exchange(query("b.test", "A", 7), AbortSignal.timeout(5000));
        assert.deepEqual(addresses(r2), ["127.0.0.1"]);
        assert.equal(server.connections(), 1);
        const fields = new Map(server.seen[0].fields);
        assert.equal(fields.get(":method"), "POST");
        assert.equal(fields.get(":scheme"), "https");
        assert.equal(fields.get(":authority"), `localhost:${server.port}`);
        assert.equal(fields.get(":path"), "/q");
        assert.equal(fields.get("content-type"), "application/dns-message");
        assert.equal(fields.get("accept"), "application/dns-message");
        assert.equal(fields.get("x-test"), "yes");
        assert.equal((server.seen[0].query[0] << 8) | server.seen[0].query[1], 0);
      } finally {
        tr.close();
        await server.close();
      }
    });

    await t.step("an HTTP error status is a DnsError", async () => {
      const server = startServer(cert, key, { status: "404" });
      const tr = make(server.port);
      try {
        await assert.rejects(tr.exchange(query("a.test"), AbortSignal.timeout(5000)), (e) => {
          assert.ok(e instanceof DnsError);
          assert.match(e.message, /HTTP status 404/);
          return true;
        });
      } finally {
        tr.close();
        await server.close();
      }
    });

    await t.step("a certificate the client does not trust fails as a DnsError", async () => {
      const server = startServer(cert, key);
      const tr = createTransport(
        DnsServer.parse({ type: "h3", server: "127.0.0.1", server_port: server.port }),
        deps,
      );
      try {
        await assert.rejects(tr.exchange(query("a.test"), AbortSignal.timeout(5000)), DnsError);
      } finally {
        tr.close();
        await server.close();
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
