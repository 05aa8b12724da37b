import assert from "node:assert/strict";
import { DnsError, ProtocolError } from "../../common/errors.ts";
import {
  decodeFieldSection,
  decodeSettings,
  encodeFieldSection,
  encodeFrame,
  encodeSettings,
  encodeVarint,
  FrameReader,
  huffmanDecode,
  huffmanEncode,
  readVarint,
  STATIC_TABLE,
} from "./http3_frames.ts";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const bytes = (h: string) => Uint8Array.from(h.replace(/\s+/g, "").match(/../g)!.map((x) => parseInt(x, 16)));
const text = new TextEncoder();

Deno.test("QUIC varints match RFC 9000 Appendix A.1 samples", () => {
  const samples: [string, number][] = [
    ["c2197c5eff14e88c", 151288809941952652],
    ["9d7f3e7d", 494878333],
    ["7bbd", 15293],
    ["25", 37],
    ["4025", 37],
  ];
  for (const [h, n] of samples) {
    const r = readVarint(bytes(h), 0);
    assert.ok(r);
    assert.equal(r[1], h.length / 2);
    if (Number.isSafeInteger(n)) assert.equal(r[0], n);
  }
  for (const n of [0, 37, 63, 64, 15293, 16383, 16384, 494878333, 2 ** 30, 2 ** 40 + 5]) {
    assert.equal(readVarint(encodeVarint(n), 0)?.[0], n);
  }
  assert.equal(readVarint(bytes("9d7f3e"), 0), undefined);
});

Deno.test("QPACK static table has the 99 entries of RFC 9204 Appendix A", () => {
  assert.equal(STATIC_TABLE.length, 99);
  assert.deepEqual(STATIC_TABLE[20], [":method", "POST"]);
  assert.deepEqual(STATIC_TABLE[25], [":status", "200"]);
  assert.deepEqual(STATIC_TABLE[44], ["content-type", "application/dns-message"]);
  assert.deepEqual(STATIC_TABLE[63], [":status", "100"]);
  assert.deepEqual(STATIC_TABLE[98], ["x-frame-options", "sameorigin"]);
});

Deno.test("QPACK encodes RFC 9204 B.1 (literal with static name reference)", () => {
  const b = encodeFieldSection([[":path", "/index.html"]]);
  assert.equal(hex(b), "0000510b2f696e6465782e68746d6c");
  assert.deepEqual(decodeFieldSection(b), [[":path", "/index.html"]]);
});

Deno.test("QPACK encodes a DoH request with indexed lines and literals", () => {
  const fields: [string, string][] = [
    [":method", "POST"],
    [":scheme", "https"],
    [":authority", "dns.example:8443"],
    [":path", "/dns-query"],
    ["content-type", "application/dns-message"],
    ["accept", "application/dns-message"],
    ["x-custom", "v"],
  ];
  const b = encodeFieldSection(fields);
  // POST = static 20 (0xd4), https = 23 (0xd7), :authority = 0 and :path = 1 by name, content-type
  // = 44 (0xec), accept = 30 (0xde), then a literal name of 8 bytes (3-bit prefix: 0x27 0x01).
  const ascii = (s: string) => hex(text.encode(s));
  assert.equal(
    hex(b),
    "0000d4d7" + "5010" + ascii("dns.example:8443") + "510a" + ascii("/dns-query") + "ecde" + "2701" +
      ascii("x-custom") + "01" + ascii("v"),
  );
  assert.deepEqual(decodeFieldSection(b), fields);
});

Deno.test("Huffman code matches RFC 7541 C.4.1 and round-trips every byte", () => {
  assert.equal(hex(huffmanEncode(text.encode("www.example.com"))), "f1e3c2e5f23a6ba0ab90f4ff");
  assert.equal(new TextDecoder().decode(huffmanDecode(bytes("f1e3c2e5f23a6ba0ab90f4ff"))), "www.example.com");
  assert.equal(hex(huffmanEncode(text.encode("no-cache"))), "a8eb10649cbf");
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.deepEqual(huffmanDecode(huffmanEncode(all)), all);
  // A Huffman-coded value in a field section (H bit set): literal name reference to "server".
  const v = huffmanEncode(text.encode("svc-test"));
  const section = Uint8Array.from([0, 0, 0x50 | 0x0f, 92 - 15, 0x80 | v.length, ...v]);
  assert.deepEqual(decodeFieldSection(section), [["server", "svc-test"]]);
});

Deno.test("Huffman decoder refuses bad padding and EOS", () => {
  assert.throws(() => huffmanDecode(bytes("f1e3c2e5f23a6ba0ab90f4")), ProtocolError); // stops mid-symbol
  assert.throws(() => huffmanDecode(bytes("00")), ProtocolError); // '0' padding
  assert.throws(() => huffmanDecode(bytes("ffffffff")), ProtocolError); // EOS
});

Deno.test("QPACK decoder refuses dynamic table references", () => {
  assert.throws(() => decodeFieldSection(bytes("0100")), /dynamic table/); // Required Insert Count 1
  assert.throws(() => decodeFieldSection(bytes("000080")), /dynamic table/); // indexed, T=0
  assert.throws(() => decodeFieldSection(bytes("00004000")), /dynamic table/); // name ref, T=0
  assert.throws(() => decodeFieldSection(bytes("000010")), /dynamic table/); // post-base indexed
  assert.throws(() => decodeFieldSection(bytes("0000ff30")), /no entry/); // static 63+48 = 111
});

Deno.test("frames and SETTINGS round-trip through FrameReader", () => {
  const settings = encodeSettings([[1, 0], [7, 0]]);
  assert.equal(hex(settings), "0404" + "0100" + "0700");
  const r = new FrameReader(100);
  const all = new Uint8Array([
    ...settings,
    ...encodeFrame(0x21, new Uint8Array(3)),
    ...encodeFrame(0, text.encode("hi")),
  ]);
  r.push(all.subarray(0, 3));
  assert.equal(r.next(), undefined);
  r.push(all.subarray(3));
  const f1 = r.next()!;
  assert.equal(f1.type, 4);
  assert.deepEqual([...decodeSettings(f1.payload)], [[1, 0], [7, 0]]);
  assert.equal(r.next()!.type, 0x21);
  assert.equal(new TextDecoder().decode(r.next()!.payload), "hi");
  assert.equal(r.next(), undefined);
  assert.equal(r.pending, 0);
  r.push(encodeFrame(0, new Uint8Array(101)));
  assert.throws(() => r.next(), ProtocolError);
  assert.throws(() => decodeSettings(bytes("0100 0101")), /repeats/);
  assert.throws(() => decodeSettings(bytes("01")), /truncated/);
});

Deno.test("fuzz: the HTTP/3 and QPACK decoders throw only ProtocolError", () => {
  let seed = 0x5eed;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed >>> 8;
  };
  const base = encodeFieldSection([[":status", "200"], ["content-type", "application/dns-message"], [
    "x-a",
    "b",
  ]]);
  for (let i = 0; i < 4000; i++) {
    const b = i % 2 === 0 ? base.slice() : Uint8Array.from({ length: rand() % 24 }, () => rand() & 0xff);
    if (i % 2 === 0) { for (let k = 0; k < 1 + (rand() % 3); k++) b[rand() % b.length] = rand() & 0xff; }
    for (
      const f of [
        () => decodeFieldSection(b),
        () => huffmanDecode(b),
        () => decodeSettings(b),
        () => {
          const r = new FrameReader(64);
          r.push(b);
          while (r.next());
        },
      ]
    ) {
      try {
        f();
      } catch (e) {
        if (!(e instanceof ProtocolError) && !(e instanceof DnsError)) throw e;
      }
    }
  }
});
