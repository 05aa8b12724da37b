import assert from "node:assert/strict";
import { ProtocolError } from "../../common/errors.ts";
import { decodeRequest, encodeRequest } from "../../protocol/vless/wire.ts";
import { packetAddress, v2rayAddress } from "./address.ts";
import { decodeFrame, encodeUdpFrameHeader, STATUS_KEEP, STATUS_NEW } from "./frame.ts";

Deno.test("XUDP frames round-trip (New with address, Keep with IPv6, Keep without address)", () => {
  const out = new Uint8Array(600);
  for (
    const [status, addr] of [
      [STATUS_NEW, { host: "example.com", port: 53 }],
      [STATUS_KEEP, { host: "2001:db8::1", port: 443 }],
      [STATUS_KEEP, undefined],
    ] as const
  ) {
    const data = crypto.getRandomValues(new Uint8Array(100));
    const h = encodeUdpFrameHeader(out, status, addr, data.length);
    out.set(data, h);
    const f = decodeFrame(out.subarray(0, h + data.length))!;
    assert.equal(f.status, status);
    assert.deepEqual(f.addr, addr);
    assert.deepEqual(f.data, data);
    assert.equal(f.length, h + data.length);
    assert.equal(decodeFrame(out.subarray(0, h + data.length - 1)), undefined, "truncated: needs more");
  }
});

/** Random, truncated and bit-flipped input: a decoder returns, asks for more, or throws ProtocolError. */
function fuzz(name: string, seed: Uint8Array, decode: (b: Uint8Array) => unknown) {
  Deno.test(`${name} decoder fuzz: never anything but ProtocolError`, () => {
    for (let i = 0; i < 5000; i++) {
      let b: Uint8Array;
      if (i % 3 === 0) b = crypto.getRandomValues(new Uint8Array(i % 300));
      else {
        b = seed.slice(0, i % (seed.length + 1));
        if (b.length) b[i % b.length] ^= 1 << (i % 8);
      }
      try {
        decode(b);
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `${name}: ${e}`);
      }
    }
  });
}

const frame = new Uint8Array(64);
const fl = encodeUdpFrameHeader(frame, STATUS_NEW, { host: "1.2.3.4", port: 9 }, 10);
fuzz("mux.cool frame", frame.subarray(0, fl + 10), decodeFrame);
fuzz(
  "VLESS request",
  encodeRequest(new Uint8Array(16), 1, { host: "example.org", port: 80 }),
  decodeRequest,
);
const addr = new Uint8Array(40);
fuzz(
  "v2ray address",
  addr.subarray(0, v2rayAddress.encode({ host: "a.example", port: 1 }, addr, 0)),
  (b) => v2rayAddress.decode(b, 0),
);
fuzz(
  "packetaddr",
  addr.subarray(0, packetAddress.encode({ host: "::1", port: 1 }, addr, 0)),
  (b) => packetAddress.decode(b, 0),
);
