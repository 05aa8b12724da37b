import { deepStrictEqual, equal } from "node:assert/strict";
import { PACKET_SNIFFERS, sniffPackets, sniffStream, STREAM_SNIFFERS } from "./mod.ts";
import { datagrams, fixture } from "./test_util.ts";

Deno.test("mod: sniffer names are sing-box's", () => {
  deepStrictEqual([...STREAM_SNIFFERS], ["tls", "http", "ssh", "rdp", "bittorrent", "dns"]);
  deepStrictEqual([...PACKET_SNIFFERS], ["quic", "dns", "stun", "dtls", "ntp", "bittorrent"]);
});

Deno.test("mod: each stream fixture is found by its own sniffer only", () => {
  const cases: [string, string][] = [
    ["tls_curl.bin", "tls"],
    ["tls_openssl.bin", "tls"],
    ["tls_chromium.bin", "tls"],
    ["http_curl.bin", "http"],
    ["ssh_openssh.bin", "ssh"],
    ["rdp_xfreerdp.bin", "rdp"],
    ["rdp_rdesktop.bin", "rdp"],
    ["bittorrent_libtorrent.bin", "bittorrent"],
    ["dns_dig_tcp.bin", "dns"],
  ];
  for (const [name, protocol] of cases) {
    const data = fixture(name);
    const outcome = sniffStream(data);
    equal(outcome.kind === "found" ? outcome.result.protocol : outcome.kind, protocol, name);
    for (const other of STREAM_SNIFFERS.filter((s) => s !== protocol)) {
      equal(sniffStream(data, new Set([other])).kind, "none", `${name} by ${other}`);
    }
  }
});

Deno.test("mod: each packet fixture is found by its own sniffer only", () => {
  const cases: [string, string][] = [
    ["quic_chromium", "quic"],
    ["quic_deno", "quic"],
    ["quic_ngtcp2", "quic"],
    ["dns_dig_udp", "dns"],
    ["stun_turnutils", "stun"],
    ["dtls_openssl", "dtls"],
    ["ntp_ntpdig", "ntp"],
    ["bittorrent_utp_libtorrent", "bittorrent"],
    ["bittorrent_dht_libtorrent", "bittorrent"],
    ["bittorrent_tracker_libtorrent", "bittorrent"],
  ];
  for (const [name, protocol] of cases) {
    const packets = datagrams(name);
    const outcome = sniffPackets(packets);
    equal(outcome.kind === "found" ? outcome.result.protocol : outcome.kind, protocol, name);
    for (const other of PACKET_SNIFFERS.filter((s) => s !== protocol)) {
      equal(sniffPackets(packets, new Set([other])).kind, "none", `${name} by ${other}`);
    }
  }
});

Deno.test("mod: need_more while any allowed sniffer waits; none when none can match", () => {
  const tls = fixture("tls_curl.bin").subarray(0, 100);
  equal(sniffStream(tls).kind, "need_more");
  equal(sniffStream(tls, new Set(["tls", "http"])).kind, "need_more");
  equal(sniffStream(tls, new Set(["http", "ssh"])).kind, "none");
  equal(sniffStream(new Uint8Array(0)).kind, "need_more");
  equal(sniffStream(new Uint8Array(0), new Set()).kind, "none");
  equal(sniffStream(fixture("tls_curl.bin"), new Set(["no-such-sniffer"])).kind, "none");
  const chromium = datagrams("quic_chromium");
  equal(sniffPackets(chromium.slice(0, 1)).kind, "need_more");
  equal(sniffPackets(chromium.slice(0, 1), new Set(["dns", "stun"])).kind, "none");
  equal(sniffPackets([]).kind, "need_more");
  equal(sniffPackets([new Uint8Array(0)]).kind, "none");
});
