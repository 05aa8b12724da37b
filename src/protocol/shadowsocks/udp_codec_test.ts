import assert from "node:assert/strict";
import { ProtocolError } from "../../common/errors.ts";
import { pskHash } from "./kdf.ts";
import { methodOf, passwordKeys } from "./method.ts";
import { ReplayWindow } from "./replay_window.ts";
import { open2022, openLegacy, seal2022, sealLegacy } from "./udp_codec.ts";

const dest = { host: "example.com", port: 53 };
const payload = new TextEncoder().encode("query");

for (const method of ["none", "aes-128-gcm", "aes-256-gcm", "chacha20-ietf-poly1305"]) {
  Deno.test(`UDP ${method}: seal/open round trip; other keys and damage are refused`, () => {
    const m = methodOf(method);
    const [key] = method === "none" ? [new Uint8Array(0)] : passwordKeys(m, "pw");
    const [other] = method === "none" ? [key] : passwordKeys(m, "other");
    const p = sealLegacy(m, key, dest, payload);
    const d = openLegacy(m, [other, key], p);
    assert.equal(d.index, method === "none" ? 0 : 1);
    assert.deepEqual(d.addr, dest);
    assert.deepEqual(d.payload, payload);
    if (method !== "none") {
      assert.throws(() => openLegacy(m, [other], p), ProtocolError);
      for (let i = 0; i < 200; i++) {
        const bad = p.slice(0, Math.floor(Math.random() * (p.length + 1)));
        if (bad.length) bad[Math.floor(Math.random() * bad.length)] ^= 0x80;
        assert.throws(() => openLegacy(m, [key], bad), ProtocolError);
      }
    }
  });
}

for (
  const [method, size] of [["2022-blake3-aes-128-gcm", 16], ["2022-blake3-aes-256-gcm", 32], [
    "2022-blake3-chacha20-poly1305",
    32,
  ]] as const
) {
  Deno.test(`UDP ${method}: client and server packets, timestamps, fuzz`, () => {
    const m = methodOf(method);
    const psk = crypto.getRandomValues(new Uint8Array(size));
    const now = Date.now() / 1000;
    const sid = crypto.getRandomValues(new Uint8Array(8));
    const p = seal2022(m, [psk], { sessionId: sid, packetId: 5n, type: 0, timestamp: now }, dest, payload);
    const d = open2022(m, psk, p, false, now);
    assert.deepEqual(d.header.sessionId, sid);
    assert.equal(d.header.packetId, 5n);
    assert.deepEqual(d.payload, payload);
    assert.throws(() => open2022(m, psk, p, true, now), /Bad packet header type/);
    assert.throws(() => open2022(m, psk, p, false, now + 31), /Bad timestamp/);
    const reply = seal2022(
      m,
      [psk],
      {
        sessionId: crypto.getRandomValues(new Uint8Array(8)),
        packetId: 0n,
        type: 1,
        timestamp: now,
        clientSessionId: sid,
      },
      dest,
      payload,
    );
    assert.deepEqual(open2022(m, psk, reply, true, now).header.clientSessionId, sid);
    for (let i = 0; i < 200; i++) {
      const bad = p.slice(0, Math.floor(Math.random() * (p.length + 1)));
      if (bad.length) bad[Math.floor(Math.random() * bad.length)] ^= 0x01;
      assert.throws(() => open2022(m, psk, bad, false, now), ProtocolError);
    }
  });
}

Deno.test("UDP 2022 multi-user: the identity header names the user", () => {
  const m = methodOf("2022-blake3-aes-256-gcm");
  const ipsk = crypto.getRandomValues(new Uint8Array(32)), upsk = crypto.getRandomValues(new Uint8Array(32));
  const now = Date.now() / 1000;
  const sid = crypto.getRandomValues(new Uint8Array(8));
  const p = seal2022(
    m,
    [ipsk, upsk],
    { sessionId: sid, packetId: 0n, type: 0, timestamp: now },
    dest,
    payload,
  );
  const users = new Map([[String.fromCharCode(...pskHash(upsk)), upsk]]);
  const d = open2022(m, ipsk, p, false, now, (h) => users.get(String.fromCharCode(...h)));
  assert.equal(d.userKey, upsk);
  assert.deepEqual(d.payload, payload);
  assert.throws(() => open2022(m, ipsk, p, false, now, () => undefined), /Unknown identity header/);
});

Deno.test("ReplayWindow: once each, old ids refused, far jumps reset", () => {
  const w = new ReplayWindow();
  assert.ok(w.accept(0));
  assert.ok(!w.accept(0));
  assert.ok(w.accept(5));
  assert.ok(w.accept(3));
  assert.ok(!w.accept(3));
  assert.ok(w.accept(10_000));
  assert.ok(!w.accept(5), "too old now");
  assert.ok(w.accept(9_999));
  assert.ok(!w.accept(9_999));
});
