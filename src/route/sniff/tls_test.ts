import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffTls } from "./tls.ts";
import { buildClientHello, fixture, tlsRecords } from "./test_util.ts";
import { NEED_MORE, NONE } from "./types.ts";

const found = (domain?: string) => ({
  kind: "found",
  result: domain ? { protocol: "tls", domain } : { protocol: "tls" },
});

Deno.test("tls: real ClientHellos from curl, openssl and chromium give the SNI", () => {
  deepStrictEqual(sniffTls(fixture("tls_curl.bin")), found("example.test"));
  deepStrictEqual(sniffTls(fixture("tls_openssl.bin")), found("x.test"));
  deepStrictEqual(sniffTls(fixture("tls_chromium.bin")), found("chromium.test"));
});

Deno.test("tls: every shorter read of a ClientHello asks for more", () => {
  for (const name of ["tls_curl.bin", "tls_chromium.bin"]) {
    const data = fixture(name);
    for (let n = 0; n < data.length; n++) {
      equal(sniffTls(data.subarray(0, n)).kind, "need_more", `${name} at ${n}`);
    }
  }
});

Deno.test("tls: a ClientHello split over several records, read in small pieces", () => {
  const whole = fixture("tls_chromium.bin");
  const message = whole.subarray(5, 5 + ((whole[3] << 8) | whole[4]));
  for (const sizes of [[3], [100, 200], [1, 1, 1, 1, 700]]) {
    const split = tlsRecords(message, sizes);
    deepStrictEqual(sniffTls(split), found("chromium.test"), `sizes ${sizes}`);
    for (let n = 0; n < split.length; n += 7) {
      equal(sniffTls(split.subarray(0, n)), NEED_MORE, `${sizes} at ${n}`);
    }
  }
});

Deno.test("tls: data after the ClientHello is ignored", () => {
  const data = fixture("tls_openssl.bin");
  const more = new Uint8Array(data.length + 10);
  more.set(data);
  deepStrictEqual(sniffTls(more), found("x.test"));
});

Deno.test("tls: records after the ClientHello (change_cipher_spec, early data) do not matter", () => {
  const hello = fixture("tls_curl.bin");
  const after = Uint8Array.from([
    ...hello,
    0x14,
    0x03,
    0x03,
    0x00,
    0x01,
    0x01,
    0x17,
    0x03,
    0x03,
    0x00,
    0x02,
    9,
    9,
  ]);
  deepStrictEqual(sniffTls(after), found("example.test"));
});

Deno.test("tls: a ClientHello without SNI or with an IP in it has no domain", () => {
  deepStrictEqual(sniffTls(tlsRecords(buildClientHello({}))), found());
  deepStrictEqual(sniffTls(tlsRecords(buildClientHello({ sni: "192.0.2.1" }))), found());
  deepStrictEqual(sniffTls(tlsRecords(buildClientHello({ sni: "Example.COM." }))), found("example.com"));
});

Deno.test("tls: other bytes are not TLS", () => {
  equal(sniffTls(new TextEncoder().encode("GET / HTTP/1.1\r\n")), NONE);
  equal(sniffTls(Uint8Array.of(0x16, 0x02)), NONE); // record version 2.x
  equal(sniffTls(Uint8Array.of(0x16, 0x03, 0x09)), NONE);
  equal(sniffTls(Uint8Array.of(0x16, 0x03, 0x01, 0x00, 0x00)), NONE); // empty record
  equal(sniffTls(Uint8Array.of(0x16, 0x03, 0x01, 0x50, 0x00)), NONE); // record over 2^14
  equal(sniffTls(Uint8Array.of(0x16, 0x03, 0x01, 0x00, 0x04, 0x02, 0, 0, 0)), NONE); // ServerHello
  equal(sniffTls(Uint8Array.of(0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x7f, 0, 0, 3)), NONE); // 8 MB hello
  equal(sniffTls(Uint8Array.of(0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0, 1, 0, 0x7f)), NONE); // legacy_version
  equal(sniffTls(Uint8Array.of(0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0, 1, 0, 3)), NEED_MORE);
  // A complete but malformed ClientHello (cipher suite list of odd length).
  const bad = buildClientHello({ sni: "a.test" });
  bad[4 + 2 + 32 + 1 + 1] = 3;
  equal(sniffTls(tlsRecords(bad)), NONE);
});
