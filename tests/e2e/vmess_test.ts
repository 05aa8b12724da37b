/**
 * vmess against v2ray 4.34 (PEERS.md) and svc ↔ svc: svc's vmess outbound → v2ray's vmess inbound
 * for every security, v2ray's vmess outbound → svc's vmess inbound, UDP (DNS to dnsmasq through
 * SOCKS5 UDP ASSOCIATE), packetaddr and XUDP svc ↔ svc, half-close, and bad input against the
 * inbound. Every download is a real curl checked byte for byte.
 */
import assert from "node:assert/strict";
import { blobOrigin, curlBytes } from "../support/blob_origin.ts";
import { startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startDnsmasq } from "../support/peers.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";
import { dnsAnswers, dnsQuery } from "../support/trojan_peers.ts";
import { startV2rayClient, startV2rayServer } from "../support/v2ray.ts";
import { sealRequestHeader } from "../../src/protocol/vmess/header.ts";
import { cmdKey, parseUuid } from "../../src/protocol/vmess/kdf.ts";
import { CMD_TCP, encodeInstruction, OPT_CHUNK_STREAM, SEC_NONE } from "../../src/protocol/vmess/wire.ts";

const UUID = "b831381d-6324-4d53-ad4f-8cda48b30811";

function socksIn() {
  return { type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 };
}

function vmessOut(port: number, extra: Record<string, unknown> = {}) {
  return { type: "vmess", tag: "vm", server: "127.0.0.1", server_port: port, uuid: UUID, ...extra };
}

function vmessIn(extra: Record<string, unknown> = {}) {
  return {
    type: "vmess",
    tag: "vin",
    listen: "127.0.0.1",
    listen_port: 0,
    users: [{ name: "alice", uuid: UUID, alterId: 0 }],
    ...extra,
  };
}

for (const security of ["auto", "aes-128-gcm", "chacha20-poly1305", "none", "zero"]) {
  Deno.test(`vmess outbound (${security}) → v2ray vmess inbound: curl download byte for byte`, async () => {
    await using o = blobOrigin(3 * 1024 * 1024 + 17);
    await using v2 = await startV2rayServer("vmess", UUID);
    await using svc = await startEngine({
      log: { level: "warn" },
      inbounds: [socksIn()],
      outbounds: [vmessOut(v2.port, { security, global_padding: security !== "zero" })],
    });
    await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`], o.url(), o.body);
  });
}

for (const security of ["aes-128-gcm", "chacha20-poly1305", "none", "zero"]) {
  Deno.test(`v2ray vmess outbound (${security}) → svc vmess inbound: curl download byte for byte`, async () => {
    await using o = blobOrigin(3 * 1024 * 1024 + 17);
    await using svc = await startEngine({
      log: { level: "warn" },
      inbounds: [vmessIn()],
      outbounds: [{ type: "direct", tag: "direct" }],
    });
    await using v2 = await startV2rayClient("vmess", UUID, inboundPort(svc, "vin"), { security });
    await curlBytes(["-x", `socks5h://127.0.0.1:${v2.port}`], o.url(), o.body);
  });
}

/** Five DNS queries to dnsmasq through a SOCKS5 UDP ASSOCIATE on `proxyPort`, answers checked. */
async function dnsThrough(proxyPort: number, dnsPort: number): Promise<void> {
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: proxyPort });
  for (let id = 1; id <= 5; id++) {
    await client.send({ host: "127.0.0.1", port: dnsPort }, dnsQuery(`n${id}.test.lan`, id));
    const got = await client.receive(3000);
    assert.ok(got, `answer ${id}`);
    assert.deepEqual(dnsAnswers(got.payload), { id, addresses: ["127.0.0.1"] });
    assert.deepEqual(got.from, { host: "127.0.0.1", port: dnsPort });
  }
}

Deno.test("vmess UDP: svc outbound → v2ray inbound, DNS to dnsmasq", async () => {
  await using dns = await startDnsmasq();
  await using v2 = await startV2rayServer("vmess", UUID);
  await using svc = await startEngine({
    log: { level: "warn" },
    inbounds: [socksIn()],
    outbounds: [vmessOut(v2.port, { security: "aes-128-gcm" })],
  });
  await dnsThrough(inboundPort(svc, "in"), dns.port);
});

Deno.test("vmess UDP: v2ray outbound → svc inbound, DNS to dnsmasq", async () => {
  await using dns = await startDnsmasq();
  await using svc = await startEngine({
    log: { level: "warn" },
    inbounds: [vmessIn()],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  await using v2 = await startV2rayClient("vmess", UUID, inboundPort(svc, "vin"), {
    security: "chacha20-poly1305",
  });
  await dnsThrough(v2.port, dns.port);
});

for (
  const opts of [
    { security: "aes-128-gcm", authenticated_length: true, global_padding: true, packet_encoding: "xudp" },
    { security: "chacha20-poly1305", authenticated_length: true, packet_encoding: "packetaddr" },
    { security: "none", global_padding: true },
    { security: "zero", packet_encoding: "xudp" },
  ]
) {
  Deno.test(`vmess svc ↔ svc ${JSON.stringify(opts)}: TCP download and DNS over UDP`, async () => {
    await using o = blobOrigin(2 * 1024 * 1024 + 5);
    await using dns = await startDnsmasq();
    await using server = await startEngine({
      log: { level: "warn" },
      inbounds: [vmessIn()],
      outbounds: [{ type: "direct", tag: "direct" }],
    });
    await using client = await startEngine({
      log: { level: "warn" },
      inbounds: [socksIn()],
      outbounds: [vmessOut(inboundPort(server, "vin"), opts)],
    });
    const p = inboundPort(client, "in");
    await curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body);
    await dnsThrough(p, dns.port);
  });
}

Deno.test("vmess half-close: a client that shuts its write side still gets the whole response", async () => {
  // A raw TCP echo-after-EOF server: answers only once the request side is closed.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    for await (const c of listener) {
      (async () => {
        const buf = new Uint8Array(65536);
        let total = 0;
        let n;
        while ((n = await c.read(buf)) !== null) total += n;
        const reply = new Uint8Array(1_000_000).fill(0x5a);
        reply.set(new TextEncoder().encode(`got ${total}\n`));
        let off = 0;
        while (off < reply.length) off += await c.write(reply.subarray(off));
        c.close();
      })();
    }
  })();
  try {
    await using server = await startEngine({
      log: { level: "warn" },
      inbounds: [vmessIn()],
      outbounds: [{ type: "direct", tag: "direct" }],
    });
    await using client = await startEngine({
      log: { level: "warn" },
      inbounds: [socksIn()],
      outbounds: [vmessOut(inboundPort(server, "vin"), { security: "aes-128-gcm" })],
    });
    const port = (listener.addr as Deno.NetAddr).port;
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: inboundPort(client, "in") });
    await conn.write(new Uint8Array([5, 1, 0]));
    await readN(conn, 2);
    await conn.write(new Uint8Array([5, 1, 0, 1, 127, 0, 0, 1, port >> 8, port & 255]));
    await readN(conn, 10);
    await conn.write(new Uint8Array(12345).fill(1));
    await conn.closeWrite();
    const got = await readAll(conn);
    conn.close();
    assert.equal(got.length, 1_000_000);
    assert.equal(new TextDecoder().decode(got.subarray(0, 10)), "got 12345\n");
  } finally {
    listener.close();
    await served.catch(() => {});
  }
});

async function readN(c: Deno.Conn, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let off = 0;
  while (off < n) {
    const k = await c.read(out.subarray(off));
    if (k === null) throw new Error("closed early");
    off += k;
  }
  return out;
}

async function readAll(c: Deno.Conn): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const buf = new Uint8Array(65536);
  let n;
  while ((n = await c.read(buf)) !== null) parts.push(buf.slice(0, n));
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/**
 * Sends `bytes` (then `extra` random bytes, then a half-close) and counts what the server answers
 * before it closes; stops early once `enough` bytes came (a genuine request), fails after 20 s.
 */
async function probe(port: number, bytes: Uint8Array, extra = 5000, enough = Infinity): Promise<number> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  const timer = setTimeout(() => c.close(), 20_000);
  let answered = 0;
  try {
    await c.write(bytes);
    if (extra) await c.write(crypto.getRandomValues(new Uint8Array(extra))).catch(() => 0);
    if (enough === Infinity) await c.closeWrite().catch(() => {});
    const buf = new Uint8Array(4096);
    while (answered < enough) {
      const n = await c.read(buf).catch(() => null);
      if (n === null) break;
      answered += n;
    }
  } finally {
    clearTimeout(timer);
    try {
      c.close();
    } catch { /* closed by the timer */ }
  }
  return answered;
}

Deno.test("vmess inbound bad input: garbage, wrong user, replayed auth id, truncated header; it keeps serving", async () => {
  await using o = blobOrigin(500_000);
  await using server = await startEngine({
    log: { level: "warn" },
    inbounds: [vmessIn()],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  const port = inboundPort(server, "vin");
  // A real request header for GET /blob, built with the codec and sent twice: the replay must fail.
  const key = cmdKey(parseUuid(UUID));
  const header = encodeInstruction({
    bodyIv: crypto.getRandomValues(new Uint8Array(16)),
    bodyKey: crypto.getRandomValues(new Uint8Array(16)),
    respV: 1,
    options: OPT_CHUNK_STREAM,
    security: SEC_NONE,
    command: CMD_TCP,
    destination: { host: "127.0.0.1", port: o.port },
  }, crypto.getRandomValues(new Uint8Array(16)));
  const sealed = sealRequestHeader(
    key,
    header,
    Date.now() / 1000,
    crypto.getRandomValues(new Uint8Array(12)),
  );
  const request = new TextEncoder().encode(`GET /hello HTTP/1.0\r\nHost: x\r\n\r\n`);
  const chunk = new Uint8Array([request.length >> 8, request.length & 255, ...request]);
  assert.ok(
    await probe(port, new Uint8Array([...sealed, ...chunk]), 0, 60) >= 60,
    "the genuine request is answered",
  );
  assert.equal(
    await probe(port, new Uint8Array([...sealed, ...chunk])),
    0,
    "a replayed auth id gets nothing back",
  );
  const wrongKey = cmdKey(parseUuid("00000000-0000-4000-8000-00000000abcd"));
  const wrong = sealRequestHeader(
    wrongKey,
    header,
    Date.now() / 1000,
    crypto.getRandomValues(new Uint8Array(12)),
  );
  assert.equal(await probe(port, wrong), 0, "a wrong user gets nothing back");
  const stale = sealRequestHeader(
    key,
    header,
    Date.now() / 1000 - 600,
    crypto.getRandomValues(new Uint8Array(12)),
  );
  assert.equal(await probe(port, stale), 0, "an auth id 600 s old gets nothing back");
  assert.equal(await probe(port, crypto.getRandomValues(new Uint8Array(64))), 0, "garbage");
  const fresh = sealRequestHeader(key, header, Date.now() / 1000, crypto.getRandomValues(new Uint8Array(12)));
  assert.equal(await probe(port, fresh.subarray(0, fresh.length - 5), 0), 0, "truncated header");
  // Still serving: a genuine client downloads byte for byte.
  await using client = await startEngine({
    log: { level: "warn" },
    inbounds: [socksIn()],
    outbounds: [vmessOut(port, { security: "aes-128-gcm" })],
  });
  await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(client, "in")}`], o.url(), o.body);
});
