import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffDtls } from "./dtls.ts";
import { buildClientHello, datagrams, fromHex } from "./test_util.ts";
import { MAX_PACKETS, NEED_MORE, NONE } from "./types.ts";

const found = (domain?: string) => ({
  kind: "found",
  result: domain ? { protocol: "dtls", domain } : { protocol: "dtls" },
});

/** DTLS 1.2 records, each with one ClientHello fragment of the given [offset, end). */
function fragmented(message: Uint8Array, cuts: [number, number][]): Uint8Array[] {
  const body = message.subarray(4);
  return cuts.map(([from, to], seq) => {
    const frag = body.subarray(from, to);
    const hs = [
      1,
      0,
      body.length >> 8,
      body.length & 0xff,
      0,
      0,
      0,
      from >> 8,
      from & 0xff,
      0,
      frag.length >> 8,
      frag.length & 0xff,
    ];
    const len = hs.length + frag.length;
    return Uint8Array.from([22, 0xfe, 0xfd, 0, 0, 0, 0, 0, 0, 0, seq, len >> 8, len & 0xff, ...hs, ...frag]);
  });
}

Deno.test("dtls: openssl s_client -dtls1_2 gives the SNI", () => {
  deepStrictEqual(sniffDtls(datagrams("dtls_openssl")), found("x.test"));
});

Deno.test("dtls: a ClientHello fragmented over two datagrams", () => {
  const hello = buildClientHello({ sni: "frag.test", dtls: true, cipherSuites: [0xc02b, 0xc02f] });
  const n = hello.length - 4;
  const [a, b] = fragmented(hello, [[0, 40], [40, n]]);
  equal(sniffDtls([a]), NEED_MORE);
  deepStrictEqual(sniffDtls([a, b]), found("frag.test"));
  deepStrictEqual(sniffDtls([b, a]), found("frag.test"));
  // Overlapping and duplicated fragments.
  const [c, d, e] = fragmented(hello, [[0, 30], [0, 50], [20, n]]);
  deepStrictEqual(sniffDtls([c, d, c, e]), found("frag.test"));
  // A gap that never fills: bounded by the packet limit.
  const gap = fragmented(hello, [[0, 10]])[0];
  equal(sniffDtls(new Array(MAX_PACKETS - 1).fill(gap)), NEED_MORE);
  deepStrictEqual(sniffDtls(new Array(MAX_PACKETS).fill(gap)), found());
});

Deno.test("dtls: other first records are DTLS without a domain; non-DTLS is none", () => {
  deepStrictEqual(sniffDtls([fromHex("17fefd000100000000000100030a0b0c")]), found()); // application data
  equal(sniffDtls([fromHex("16fefc000000000000000000030a0b0c")]), NONE); // version
  equal(sniffDtls([fromHex("16fefd000000000000000000ff0a0b0c")]), NONE); // length past the datagram
  equal(sniffDtls([fromHex("1603010005")]), NONE);
  equal(sniffDtls([]), NEED_MORE);
});
