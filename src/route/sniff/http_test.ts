import { deepStrictEqual, equal } from "node:assert/strict";
import { hostToDomain, sniffHttp } from "./http.ts";
import { ascii, fixture } from "./test_util.ts";
import { NEED_MORE, NONE } from "./types.ts";

const found = (domain?: string) => ({
  kind: "found",
  result: domain ? { protocol: "http", domain } : { protocol: "http" },
});

Deno.test("http: curl's request gives the Host without its port", () => {
  deepStrictEqual(sniffHttp(fixture("http_curl.bin")), found("example.test"));
});

Deno.test("http: every prefix of curl's request before the Host line asks for more", () => {
  const data = fixture("http_curl.bin");
  const text = new TextDecoder().decode(data);
  const hostEnd = text.indexOf("\r\n", text.indexOf("Host:")) + 2;
  for (let n = 0; n < hostEnd; n++) equal(sniffHttp(data.subarray(0, n)), NEED_MORE, `at ${n}`);
  deepStrictEqual(sniffHttp(data.subarray(0, hostEnd)), found("example.test"));
});

Deno.test("http: request forms", () => {
  deepStrictEqual(
    sniffHttp(ascii("GET http://Proxy.Example:8080/x HTTP/1.1\r\nHost: other\r\n\r\n")),
    found("proxy.example"),
  );
  deepStrictEqual(
    sniffHttp(ascii("POST /a HTTP/1.0\r\nUser-Agent: x\r\nhOsT:  b.test \r\n\r\n")),
    found("b.test"),
  );
  deepStrictEqual(sniffHttp(ascii("GET / HTTP/1.0\r\n\r\n")), found());
  deepStrictEqual(sniffHttp(ascii("GET / HTTP/1.1\nHost: lf.test\n\n")), found("lf.test"));
  deepStrictEqual(
    sniffHttp(ascii("CONNECT c.test:443 HTTP/1.1\r\nHost: c.test:443\r\n\r\n")),
    found("c.test"),
  );
  deepStrictEqual(sniffHttp(ascii("GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n")), found());
  deepStrictEqual(sniffHttp(ascii("GET / HTTP/1.1\r\nHost: 10.0.0.1\r\n\r\n")), found());
});

Deno.test("http: hostToDomain", () => {
  equal(hostToDomain("example.com:80"), "example.com");
  equal(hostToDomain("example.com"), "example.com");
  equal(hostToDomain("[2001:db8::1]:443"), undefined);
  equal(hostToDomain("2001:db8::1"), undefined);
  equal(hostToDomain("1.2.3.4:80"), undefined);
  equal(hostToDomain("bad host"), undefined);
});

Deno.test("http: other bytes are not HTTP", () => {
  equal(sniffHttp(ascii("get / HTTP/1.1\r\n\r\n")), NONE);
  equal(sniffHttp(ascii("GET / HTTP/2.0\r\n\r\n")), NONE);
  equal(sniffHttp(ascii("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")), NONE);
  equal(sniffHttp(ascii("GET  / HTTP/1.1\r\n")), NONE);
  equal(sniffHttp(ascii("GET / HTTP/1.1 x\r\n")), NONE);
  equal(sniffHttp(ascii("GET / HTTP/1.1\r\nno colon here\r\n\r\n")), NONE);
  equal(sniffHttp(ascii("SSH-2.0-x\r\n")), NONE);
  equal(sniffHttp(Uint8Array.of(0x16, 0x03, 0x01)), NONE);
  equal(sniffHttp(ascii("A".repeat(30))), NONE);
  // A head that never ends is given up on at the bound.
  equal(sniffHttp(ascii("GET / HTTP/1.1\r\n" + "X-A: b\r\n".repeat(3000))), NONE);
  equal(sniffHttp(ascii("GET /" + "a".repeat(20000))), NONE);
});
