import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffQuic } from "./quic.ts";
import { concatBytes } from "./reader.ts";
import { clientInitialKeys, QUIC_DRAFT29, QUIC_V2 } from "./quic_crypto.ts";
import { buildClientHello, buildInitial, datagrams, fixture, frame, fromHex } from "./test_util.ts";
import { MAX_PACKETS, NEED_MORE, NONE } from "./types.ts";

const found = (domain?: string, client?: string) => ({
  kind: "found",
  result: { protocol: "quic", ...(domain ? { domain } : {}), ...(client ? { client } : {}) },
});

Deno.test("quic: initial keys match RFC 9001 A.1 and RFC 9369 A.1", () => {
  const dcid = fromHex("8394c8f03e515708");
  const v1 = clientInitialKeys(1, dcid)!;
  deepStrictEqual(v1.key, fromHex("1f369613dd76d5467730efcbe3b1a22d"));
  deepStrictEqual(v1.iv, fromHex("fa044b2f42a3fd3b46fb255c"));
  deepStrictEqual(v1.hp, fromHex("9f50449e04a0e810283a1e9933adedd2"));
  const v2 = clientInitialKeys(QUIC_V2, dcid)!;
  deepStrictEqual(v2.key, fromHex("8b1a0bc121284290a29e0971b5cd045d"));
  deepStrictEqual(v2.iv, fromHex("91f73e2351d8fa91660e909f"));
  deepStrictEqual(v2.hp, fromHex("45b95e15235d6f45a6b19cbcb0294ba9"));
});

Deno.test("quic: the client Initial of RFC 9001 A.2 (v1) and RFC 9369 A.2 (v2)", () => {
  deepStrictEqual(sniffQuic([fixture("quic_rfc9001_a2.hex")]), found("example.com", "unknown"));
  deepStrictEqual(sniffQuic([fixture("quic_rfc9369_a2.hex")]), found("example.com", "unknown"));
});

Deno.test("quic: Chromium spreads its ClientHello over two Initial packets", () => {
  const packets = datagrams("quic_chromium");
  equal(sniffQuic(packets.slice(0, 1)), NEED_MORE);
  deepStrictEqual(sniffQuic(packets.slice(0, 2)), found("chromium.test", "chromium"));
  deepStrictEqual(sniffQuic(packets), found("chromium.test", "chromium"));
  deepStrictEqual(sniffQuic([packets[1], packets[0]]), found("chromium.test", "chromium"));
});

Deno.test("quic: Deno's QUIC client (quinn) and ngtcp2's gtlsclient", () => {
  const deno = datagrams("quic_deno");
  deepStrictEqual(sniffQuic(deno.slice(0, 1)), found("deno.test", "unknown"));
  deepStrictEqual(sniffQuic(deno), found("deno.test", "unknown"));
  deepStrictEqual(sniffQuic(datagrams("quic_ngtcp2")), found("localhost", "unknown"));
});

Deno.test("quic: client guesses from the frame layout, as sing-box makes them", () => {
  const hello = buildClientHello({ sni: "www.example.test", groups: [29, 23], versions: [0x0304] });
  const crypto = frame.crypto(0, hello);
  // Firefox: one CRYPTO frame, the datagram padded after the packet.
  deepStrictEqual(
    sniffQuic([buildInitial({ frames: [crypto], datagramSize: 1200 })]),
    found("www.example.test", "firefox"),
  );
  // quic-go: PADDING, then CRYPTO.
  deepStrictEqual(
    sniffQuic([buildInitial({ frames: [frame.padding(300), crypto] })]),
    found("www.example.test", "quic-go"),
  );
  // CRYPTO then PADDING without Safari's fingerprint.
  deepStrictEqual(
    sniffQuic([buildInitial({ frames: [crypto, frame.padding(300)] })]),
    found("www.example.test", "unknown"),
  );
  // Safari: CRYPTO then PADDING, GREASE first in 2 versions and 5 groups.
  const safari = buildClientHello({
    sni: "s.test",
    versions: [0x2a2a, 0x0304],
    groups: [0x3a3a, 29, 23, 24, 25],
  });
  deepStrictEqual(
    sniffQuic([buildInitial({ frames: [frame.crypto(0, safari), frame.padding(300)] })]),
    found("s.test", "safari"),
  );
  const safari2 = buildClientHello({
    sni: "s.test",
    cipherSuites: [0x1302],
    groups: [29],
    signatureAlgorithms: [0x0403],
  });
  deepStrictEqual(
    sniffQuic([buildInitial({ frames: [frame.crypto(0, safari2), frame.padding(300)] })]),
    found("s.test", "safari"),
  );
  // Chromium-style scattering in one packet: several CRYPTO frames and PINGs, out of order.
  const scattered = [
    frame.ping(),
    frame.crypto(40, hello.subarray(40)),
    frame.padding(5),
    frame.crypto(0, hello.subarray(0, 40)),
  ];
  deepStrictEqual(sniffQuic([buildInitial({ frames: scattered })]), found("www.example.test", "quic-go"));
  const chrome115 = buildClientHello({
    sni: "c.test",
    cipherSuites: [4865, 4866, 4867],
    groups: [29, 23, 24],
    signatureAlgorithms: [1027, 2052, 1025, 1283, 2053, 1281, 2054, 1537, 513],
    versions: [0x0304],
    alpn: ["h3"],
    extra: [57, 45, 51, 27, 17513],
  });
  const c115 = [
    frame.crypto(0, chrome115.subarray(0, 50)),
    frame.ping(),
    frame.crypto(50, chrome115.subarray(50)),
  ];
  deepStrictEqual(sniffQuic([buildInitial({ frames: c115 })]), found("c.test", "chromium"));
});

Deno.test("quic: v2 and draft-29 ClientHellos over several packets, and coalesced packets", () => {
  const hello = buildClientHello({ sni: "v2.test", extra: [0xfe0d] });
  for (const version of [QUIC_V2, QUIC_DRAFT29]) {
    const a = buildInitial({ version, frames: [frame.crypto(0, hello.subarray(0, 30))] });
    const b = buildInitial({ version, packetNumber: 1, frames: [frame.crypto(30, hello.subarray(30))] });
    equal(sniffQuic([a]), NEED_MORE);
    deepStrictEqual(sniffQuic([a, b]), found("v2.test", "chromium"));
    // Both packets coalesced in one datagram, then junk that is not a long header.
    deepStrictEqual(
      sniffQuic([concatBytes([a, b, Uint8Array.of(0x40, 1, 2, 3)])]),
      found("v2.test", "chromium"),
    );
  }
});

Deno.test("quic: packets that do not decrypt or are not client Initials", () => {
  const rfc = fixture("quic_rfc9001_a2.hex");
  const tampered = rfc.slice();
  tampered[tampered.length - 1] ^= 1;
  equal(sniffQuic([tampered]), NONE);
  const otherDcid = rfc.slice();
  otherDcid[6] ^= 1;
  equal(sniffQuic([otherDcid]), NONE);
  equal(sniffQuic([rfc.subarray(0, 600)]), NONE); // length runs past the datagram
  const unknownVersion = rfc.slice();
  unknownVersion[4] = 7;
  equal(sniffQuic([unknownVersion]), NONE);
  equal(sniffQuic([Uint8Array.of(0x40, 1, 2, 3)]), NONE); // short header
  equal(sniffQuic([]), NEED_MORE);
  // A decrypted Initial whose CRYPTO stream is not a ClientHello is QUIC without a domain.
  deepStrictEqual(
    sniffQuic([buildInitial({ frames: [frame.crypto(0, Uint8Array.of(2, 0, 0, 4, 3, 3, 0, 0))] })]),
    found(),
  );
  // An unknown frame type makes the packet invalid.
  equal(sniffQuic([buildInitial({ frames: [Uint8Array.of(0x08, 0, 0)] })]), NONE);
  // Only part of the ClientHello, ever: bounded by the packet limit.
  const hello = buildClientHello({ sni: "x.test" });
  const part = buildInitial({ frames: [frame.crypto(0, hello.subarray(0, 20))] });
  equal(sniffQuic(new Array(MAX_PACKETS - 1).fill(part)), NEED_MORE);
  deepStrictEqual(sniffQuic(new Array(MAX_PACKETS).fill(part)), found());
});
