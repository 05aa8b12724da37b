import assert from "node:assert/strict";
import { ProtocolError } from "../../common/errors.ts";
import * as wire from "./wire.ts";

Deno.test("socks5 address round trip: IPv4, IPv6, domain", () => {
  for (
    const addr of [
      { host: "127.0.0.1", port: 80 },
      { host: "::1", port: 443 },
      { host: "2001:db8::1:0:0:1", port: 65535 },
      { host: "::ffff:1.2.3.4", port: 1 },
      { host: "example.com", port: 8080 },
    ]
  ) {
    const enc = wire.encodeAddress(addr);
    const dec = wire.decodeAddress(enc, 0);
    assert.ok(dec);
    assert.equal(dec.next, enc.length);
    assert.deepEqual(dec.addr, addr, "RFC 5952 text, mapped IPv4 as ::ffff:a.b.c.d");
  }
});

Deno.test("socks5 request: partial input asks for more, full input parses", () => {
  const req = wire.encodeRequest(wire.CMD_CONNECT, { host: "a.test", port: 443 });
  for (let i = 0; i < req.length; i++) assert.equal(wire.decodeRequest(req.subarray(0, i)), undefined);
  assert.deepEqual(wire.decodeRequest(req), {
    cmd: 1,
    addr: { host: "a.test", port: 443 },
    length: req.length,
  });
});

Deno.test("socks4 and socks4a requests", () => {
  const v4 = wire.encodeSocks4Request(1, { host: "10.0.0.1", port: 80 }, "u", false);
  assert.deepEqual(wire.decodeSocks4Request(v4), {
    cmd: 1,
    addr: { host: "10.0.0.1", port: 80 },
    userId: "u",
    length: v4.length,
  });
  const v4a = wire.encodeSocks4Request(1, { host: "name.test", port: 81 }, "", true);
  assert.deepEqual(wire.decodeSocks4Request(v4a)?.addr, { host: "name.test", port: 81 });
  assert.equal(wire.decodeSocks4Request(v4a.subarray(0, v4a.length - 1)), undefined);
  assert.throws(() => wire.encodeSocks4Request(1, { host: "name.test", port: 1 }, "", false), ProtocolError);
});

Deno.test("socks5 UDP datagram round trip and fragment refusal", () => {
  const payload = new Uint8Array([1, 2, 3]);
  const d = wire.encodeUdpDatagram({ host: "localhost", port: 53 }, payload);
  const back = wire.decodeUdpDatagram(d);
  assert.deepEqual(back.addr, { host: "localhost", port: 53 });
  assert.deepEqual([...back.payload], [1, 2, 3]);
  const frag = d.slice();
  frag[2] = 1;
  assert.throws(() => wire.decodeUdpDatagram(frag), ProtocolError);
});

Deno.test("socks5 password auth round trip", () => {
  const b = wire.encodePasswordAuth("user", "pässword");
  const d = wire.decodePasswordAuth(b);
  assert.equal(d?.username, "user");
  assert.equal(d?.password, "pässword");
  assert.equal(wire.decodePasswordAuth(b.subarray(0, 4)), undefined);
});

Deno.test("socks wire decoders: fuzz never throws anything but ProtocolError", () => {
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const seeds = [
    wire.encodeRequest(1, { host: "a.test", port: 1 }),
    wire.encodeRequest(3, { host: "::1", port: 2 }),
    wire.encodeSocks4Request(1, { host: "x.test", port: 3 }, "id", true),
    wire.encodeUdpDatagram({ host: "1.2.3.4", port: 5 }, new Uint8Array(10)),
  ];
  for (let i = 0; i < 20000; i++) {
    let b: Uint8Array;
    if (i % 2 === 0) {
      b = new Uint8Array(Math.floor(rand() * 64)).map(() => Math.floor(rand() * 256));
    } else {
      b = seeds[i % seeds.length].slice(0, Math.floor(rand() * 40));
      for (let k = 0; k < 3 && b.length; k++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
    }
    for (
      const f of [
        () => wire.decodeRequest(b),
        () => wire.decodeSocks4Request(b),
        () => wire.decodeUdpDatagram(b),
        () => wire.decodeGreeting(b),
        () => wire.decodePasswordAuth(b),
      ]
    ) {
      try {
        f();
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `unexpected ${e}`);
      }
    }
  }
});
