import assert from "node:assert/strict";
import { ProtocolError } from "../../common/errors.ts";
import {
  CMD_CONNECT,
  CMD_UDP_ASSOCIATE,
  decodeCommand,
  decodeKey,
  decodeUdpFrame,
  encodeRequest,
  encodeUdpFrame,
  KEY_LENGTH,
  passwordKey,
} from "./wire.ts";

const enc = new TextEncoder();
// hashlib.sha224(b"test-password").hexdigest(), computed outside svc.
const KEY = "b42338ef718bb33b88d3c2bf0cb6130499a1dc05e5c101b3722b09c7";

Deno.test("trojan key is hex(SHA224(password))", () => {
  assert.equal(passwordKey("test-password"), KEY);
});

Deno.test("trojan request: byte layout from the protocol document", () => {
  const req = encodeRequest(KEY, CMD_CONNECT, { host: "example.com", port: 443 });
  const expected = new Uint8Array([
    ...enc.encode(KEY),
    13,
    10,
    1,
    3,
    11,
    ...enc.encode("example.com"),
    0x01,
    0xbb,
    13,
    10,
  ]); // deno-fmt-ignore
  assert.deepEqual(req, expected);
  assert.equal(decodeKey(req), KEY);
  assert.deepEqual(decodeCommand(req), {
    cmd: CMD_CONNECT,
    addr: { host: "example.com", port: 443 },
    length: req.length,
  });
  const v6 = encodeRequest(KEY, CMD_UDP_ASSOCIATE, { host: "2001:db8::1", port: 53 });
  assert.equal(v6.length, KEY_LENGTH + 2 + 1 + 19 + 2);
  assert.deepEqual(decodeCommand(v6)?.addr, { host: "2001:db8::1", port: 53 });
  // Every strict prefix asks for more bytes.
  for (let i = 0; i < req.length; i++) {
    const head = req.subarray(0, i);
    if (i < KEY_LENGTH + 2) assert.equal(decodeKey(head), undefined);
    else assert.equal(decodeCommand(head), undefined);
  }
});

Deno.test("trojan request: non-trojan bytes are refused as soon as they show", () => {
  assert.throws(() => decodeKey(enc.encode("GET / HTTP/1.1\r\n")), ProtocolError);
  assert.throws(() => decodeKey(enc.encode(KEY + "\n\r")), ProtocolError);
  const bad = encodeRequest(KEY, CMD_CONNECT, { host: "1.2.3.4", port: 80 });
  bad[KEY_LENGTH + 2] = 2; // BIND is not trojan
  assert.throws(() => decodeCommand(bad), /Unknown trojan command 2/);
  const noCrlf = encodeRequest(KEY, CMD_CONNECT, { host: "1.2.3.4", port: 80 });
  noCrlf[noCrlf.length - 1] = 0;
  assert.throws(() => decodeCommand(noCrlf), ProtocolError);
});

Deno.test("trojan UDP frame: layout, partial frames and the length bound", () => {
  const frame = encodeUdpFrame({ host: "127.0.0.1", port: 53 }, enc.encode("abc"));
  assert.deepEqual(frame, new Uint8Array([1, 127, 0, 0, 1, 0, 53, 0, 3, 13, 10, 97, 98, 99]));
  for (let i = 0; i < frame.length; i++) assert.equal(decodeUdpFrame(frame.subarray(0, i)), undefined);
  const two = new Uint8Array([...frame, ...frame]);
  const first = decodeUdpFrame(two)!;
  assert.equal(first.next, frame.length);
  assert.deepEqual(decodeUdpFrame(two, first.next)?.addr, { host: "127.0.0.1", port: 53 });
  const huge = new Uint8Array([1, 127, 0, 0, 1, 0, 53, 0xff, 0xff, 13, 10]);
  assert.throws(() => decodeUdpFrame(huge), /too long/);
  assert.throws(() => encodeUdpFrame({ host: "127.0.0.1", port: 1 }, new Uint8Array(70_000)), ProtocolError);
});

Deno.test("trojan decoders: random, truncated and mutated bytes only ever throw ProtocolError", () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const valid = [
    encodeRequest(KEY, CMD_CONNECT, { host: "example.com", port: 443 }),
    encodeRequest(KEY, CMD_UDP_ASSOCIATE, { host: "::1", port: 53 }),
    encodeUdpFrame({ host: "example.com", port: 53 }, new Uint8Array(40)),
  ];
  for (let i = 0; i < 20_000; i++) {
    const base = valid[i % valid.length];
    let b: Uint8Array;
    if (i % 3 === 0) {
      b = Uint8Array.from({ length: Math.floor(rand() * 120) }, () => Math.floor(rand() * 256));
    } else {
      b = base.slice(0, Math.floor(rand() * (base.length + 1)));
      for (let k = 0; k < 1 + rand() * 4 && b.length; k++) b[Math.floor(rand() * b.length)] = rand() * 256;
    }
    for (const decode of [decodeKey, decodeCommand, (x: Uint8Array) => decodeUdpFrame(x)]) {
      try {
        decode(b);
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `decoder threw ${e}`);
      }
    }
  }
});
