import assert from "node:assert/strict";
import { ProtocolError } from "../../common/errors.ts";
import * as wire from "./wire.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("http head: incomplete, complete, lenient LF-only", () => {
  assert.equal(wire.decodeHead(enc("GET http://a/ HTTP/1.1\r\nHost: a\r\n"), "request"), undefined);
  const h = wire.decodeHead(enc("GET http://a/x HTTP/1.1\r\nHost: a\r\nX-Y:  z \r\n\r\nBODY"), "request");
  assert.deepEqual(h?.startLine, ["GET", "http://a/x", "HTTP/1.1"]);
  assert.deepEqual(h?.headers, [["Host", "a"], ["X-Y", "z"]]);
  assert.equal(h?.length, "GET http://a/x HTTP/1.1\r\nHost: a\r\nX-Y:  z \r\n\r\n".length);
  const r = wire.decodeHead(enc("HTTP/1.0 200 OK\n\n"), "response");
  assert.deepEqual(r?.startLine, ["HTTP/1.0", "200", "OK"]);
});

Deno.test("http framing: length, chunked, none, until close", () => {
  const req = (s: string) => wire.decodeHead(enc(s), "request")!;
  const res = (s: string) => wire.decodeHead(enc(s), "response")!;
  assert.deepEqual(wire.requestBody(req("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n")), {
    kind: "length",
    length: 5,
  });
  assert.deepEqual(wire.requestBody(req("GET / HTTP/1.1\r\n\r\n")), { kind: "none" });
  assert.deepEqual(wire.responseBody(res("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), "GET"), {
    kind: "chunked",
  });
  assert.deepEqual(wire.responseBody(res("HTTP/1.1 200 OK\r\n\r\n"), "GET"), { kind: "until_close" });
  assert.deepEqual(wire.responseBody(res("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n"), "HEAD"), {
    kind: "none",
  });
  assert.deepEqual(wire.responseBody(res("HTTP/1.1 304 Not Modified\r\n\r\n"), "GET"), { kind: "none" });
  assert.throws(() => wire.requestBody(req("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")), ProtocolError);
});

Deno.test("http targets and hop-by-hop headers", () => {
  assert.deepEqual(wire.parseAbsoluteTarget("http://a.test/p?q"), { host: "a.test", port: 80, path: "/p?q" });
  assert.deepEqual(wire.parseAbsoluteTarget("http://[::1]:8080"), { host: "::1", port: 8080, path: "/" });
  assert.equal(wire.parseAbsoluteTarget("https://a.test/"), undefined);
  assert.equal(wire.parseAbsoluteTarget("/relative"), undefined);
  assert.deepEqual(wire.parseAuthority("[::1]:443"), { host: "::1", port: 443 });
  assert.equal(wire.parseAuthority("a.test:0"), undefined);
  assert.deepEqual(
    wire.forwardHeaders([
      ["Host", "a"],
      ["Proxy-Connection", "keep-alive"],
      ["Proxy-Authorization", "x"],
      [
        "Connection",
        "X-Drop",
      ],
      ["X-Drop", "1"],
      ["Accept", "*/*"],
    ]),
    [["Host", "a"], ["Accept", "*/*"]],
  );
  assert.equal(wire.keepAlive(wire.decodeHead(enc("GET / HTTP/1.0\r\n\r\n"), "request")!, "HTTP/1.0"), false);
  assert.equal(wire.keepAlive(wire.decodeHead(enc("GET / HTTP/1.1\r\n\r\n"), "request")!, "HTTP/1.1"), true);
});

Deno.test("http wire decoders: fuzz never throws anything but ProtocolError", () => {
  let seed = 99;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const base = enc("POST http://a.test:81/x HTTP/1.1\r\nHost: a.test\r\nContent-Length: 3\r\n\r\nabc");
  for (let i = 0; i < 5000; i++) {
    const b = i % 2 ? base.slice(0, Math.floor(rand() * base.length)) : new Uint8Array(
      Math.floor(rand() * 200),
    ).map(() => Math.floor(rand() * 256));
    for (let k = 0; k < 4 && b.length; k++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
    for (const kind of ["request", "response"] as const) {
      try {
        const h = wire.decodeHead(b, kind);
        if (h && kind === "request") wire.requestBody(h);
        if (h && kind === "response") wire.responseBody(h, "GET");
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `unexpected ${e}`);
      }
    }
    try {
      wire.decodeChunkSize(b);
    } catch (e) {
      assert.ok(e instanceof ProtocolError, `unexpected ${e}`);
    }
  }
});
