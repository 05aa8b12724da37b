/**
 * vless against v2ray 4.34 (PEERS.md) and svc ↔ svc: svc's vless+TLS outbound → v2ray's
 * vless+TLS inbound and the reverse, UDP (plain against v2ray, which predates XUDP; XUDP and
 * packetaddr svc ↔ svc) with DNS to dnsmasq through SOCKS5 UDP ASSOCIATE, unknown users refused
 * while the inbound keeps serving. Every download is a real curl checked byte for byte.
 */
import assert from "node:assert/strict";
import { blobOrigin, curlBytes } from "../support/blob_origin.ts";
import { startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startDnsmasq } from "../support/peers.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";
import { certDir, dnsAnswers, dnsQuery } from "../support/trojan_peers.ts";
import { startV2rayClient, startV2rayServer } from "../support/v2ray.ts";

const UUID = "27a2f0b4-8d0a-4a54-9b1e-7a0c4a8d1f33";

const socksIn = { type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 };

function vlessOut(port: number, ca: string, extra: Record<string, unknown> = {}) {
  return {
    type: "vless",
    tag: "vl",
    server: "127.0.0.1",
    server_port: port,
    uuid: UUID,
    tls: { enabled: true, server_name: "localhost", certificate: [ca] },
    ...extra,
  };
}

function vlessIn(certs: string, users = [{ name: "bob", uuid: UUID }]) {
  return {
    type: "vless",
    tag: "vin",
    listen: "127.0.0.1",
    listen_port: 0,
    users,
    tls: { enabled: true, certificate_path: `${certs}/leaf.pem`, key_path: `${certs}/leaf.key` },
  };
}

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

Deno.test("vless+TLS outbound → v2ray vless+TLS inbound: curl byte for byte, DNS over UDP", async () => {
  await using certs = await certDir();
  await using o = blobOrigin(3 * 1024 * 1024 + 3);
  await using dns = await startDnsmasq();
  await using v2 = await startV2rayServer("vless", UUID, { certs: certs.path });
  await using svc = await startEngine({
    log: { level: "warn" },
    inbounds: [socksIn],
    outbounds: [vlessOut(v2.port, certs.ca, { packet_encoding: "" })],
  });
  const p = inboundPort(svc, "in");
  await curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body);
  await dnsThrough(p, dns.port);
});

Deno.test("v2ray vless+TLS outbound → svc vless+TLS inbound: curl byte for byte, DNS over UDP", async () => {
  await using certs = await certDir();
  await using o = blobOrigin(3 * 1024 * 1024 + 3);
  await using dns = await startDnsmasq();
  await using svc = await startEngine({
    log: { level: "warn" },
    inbounds: [vlessIn(certs.path)],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  await using v2 = await startV2rayClient("vless", UUID, inboundPort(svc, "vin"), { certs: certs.path });
  await curlBytes(["-x", `socks5h://127.0.0.1:${v2.port}`], o.url(), o.body);
  await dnsThrough(v2.port, dns.port);
});

for (const packet_encoding of ["xudp", "packetaddr", ""]) {
  Deno.test(`vless+TLS svc ↔ svc (packet_encoding "${packet_encoding}"): curl and DNS over UDP`, async () => {
    await using certs = await certDir();
    await using o = blobOrigin(2 * 1024 * 1024 + 1);
    await using dns = await startDnsmasq();
    await using server = await startEngine({
      log: { level: "warn" },
      inbounds: [vlessIn(certs.path)],
      outbounds: [{ type: "direct", tag: "direct" }],
    });
    await using client = await startEngine({
      log: { level: "warn" },
      inbounds: [socksIn],
      outbounds: [vlessOut(inboundPort(server, "vin"), certs.ca, { packet_encoding })],
    });
    const p = inboundPort(client, "in");
    await curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body);
    await dnsThrough(p, dns.port);
  });
}

Deno.test("vless: an unknown UUID is refused, the inbound keeps serving, users swap at run time", async () => {
  await using certs = await certDir();
  await using o = blobOrigin(100_000);
  await using server = await startEngine({
    log: { level: "warn" },
    inbounds: [vlessIn(certs.path, [{ name: "carol", uuid: "00000000-0000-4000-8000-000000000001" }])],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  await using client = await startEngine({
    log: { level: "warn" },
    inbounds: [socksIn],
    outbounds: [vlessOut(inboundPort(server, "vin"), certs.ca)],
  });
  const p = inboundPort(client, "in");
  await assert.rejects(curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body));
  const inbound = server.engine.inbounds.get("vin") as unknown as { replaceUsers(u: unknown[]): void };
  assert.throws(() => inbound.replaceUsers([{ uuid: "not-a-uuid" }]), /Invalid UUID/);
  inbound.replaceUsers([{ name: "bob", uuid: UUID }]);
  await curlBytes(["-x", `socks5h://127.0.0.1:${p}`], o.url(), o.body);
});
