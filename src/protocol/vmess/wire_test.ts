import assert from "node:assert/strict";
import { ProtocolError } from "../../common/errors.ts";
import { ChunkOpener, ChunkSealer } from "./body.ts";
import {
  createAuthId,
  openAuthId,
  openRequestHeader,
  openRequestLength,
  sealRequestHeader,
} from "./header.ts";
import { authIdKey } from "./header.ts";
import { cmdKey, crc32, fnv1a32, kdf, parseUuid } from "./kdf.ts";
import { ReplayFilter } from "./users.ts";
import {
  CMD_TCP,
  decodeInstruction,
  encodeInstruction,
  OPT_AUTHENTICATED_LENGTH,
  OPT_CHUNK_MASKING,
  OPT_CHUNK_STREAM,
  OPT_GLOBAL_PADDING,
  SEC_AES_128_GCM,
  SEC_CHACHA20_POLY1305,
  SEC_NONE,
} from "./wire.ts";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

Deno.test("checksums and KDF match known values", () => {
  // CRC-32/IEEE and FNV-1a-32 check values of "123456789".
  const digits = new TextEncoder().encode("123456789");
  assert.equal(crc32(digits), 0xcbf43926);
  assert.equal(fnv1a32(digits), 0xbb86b11c);
  // With no path the KDF is plain HMAC-SHA256 keyed "VMess AEAD KDF" (checked with openssl).
  const out = new Deno.Command("openssl", {
    args: ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "key:VMess AEAD KDF"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const w = out.stdin.getWriter();
  return w.write(new TextEncoder().encode("abc")).then(() => w.close()).then(() => out.output()).then((r) => {
    const want = new TextDecoder().decode(r.stdout).trim().split(" ").pop();
    assert.equal(hex(kdf(new TextEncoder().encode("abc"))), want);
  });
});

Deno.test("auth id and sealed header round-trip; wrong key and stale data fail", () => {
  const key = cmdKey(parseUuid("b831381d-6324-4d53-ad4f-8cda48b30811"));
  const other = cmdKey(parseUuid("b831381d-6324-4d53-ad4f-8cda48b30812"));
  const id = createAuthId(key, 1_700_000_000, new Uint8Array([1, 2, 3, 4]));
  assert.equal(openAuthId(authIdKey(key), id), 1_700_000_000);
  assert.equal(openAuthId(authIdKey(other), id), -1);
  const ins = {
    bodyIv: new Uint8Array(16).fill(1),
    bodyKey: new Uint8Array(16).fill(2),
    respV: 7,
    options: OPT_CHUNK_STREAM,
    security: SEC_AES_128_GCM,
    command: CMD_TCP,
    destination: { host: "example.com", port: 443 },
  };
  const header = encodeInstruction(ins, crypto.getRandomValues(new Uint8Array(16)));
  const sealed = sealRequestHeader(
    key,
    header,
    Date.now() / 1000,
    crypto.getRandomValues(new Uint8Array(12)),
  );
  const len = openRequestLength(key, sealed.subarray(0, 42));
  assert.equal(len, header.length);
  assert.equal(openRequestLength(other, sealed.subarray(0, 42)), -1);
  const opened = openRequestHeader(key, sealed.subarray(0, 42), sealed.subarray(42));
  assert.deepEqual(decodeInstruction(opened), ins);
  const bad = sealed.slice();
  bad[50] ^= 1;
  assert.throws(() => openRequestHeader(key, bad.subarray(0, 42), bad.subarray(42)), ProtocolError);
});

Deno.test("instruction decoder: random and mutated input only ever throws ProtocolError", () => {
  const good = encodeInstruction({
    bodyIv: new Uint8Array(16),
    bodyKey: new Uint8Array(16),
    respV: 0,
    options: 1,
    security: 3,
    command: 1,
    destination: { host: "::1", port: 80 },
  }, new Uint8Array(16));
  for (let i = 0; i < 3000; i++) {
    const b = i % 2 ? crypto.getRandomValues(new Uint8Array(i % 90)) : good.slice(0, i % (good.length + 1));
    if (i % 3 === 0 && b.length) b[i % b.length] ^= 1 << (i % 8);
    try {
      decodeInstruction(b);
    } catch (e) {
      assert.ok(e instanceof ProtocolError, String(e));
    }
  }
});

const combos = [
  { security: SEC_AES_128_GCM, options: OPT_CHUNK_STREAM | OPT_CHUNK_MASKING | OPT_GLOBAL_PADDING },
  {
    security: SEC_CHACHA20_POLY1305,
    options: OPT_CHUNK_STREAM | OPT_CHUNK_MASKING | OPT_AUTHENTICATED_LENGTH,
  },
  {
    security: SEC_AES_128_GCM,
    options: OPT_CHUNK_STREAM | OPT_CHUNK_MASKING | OPT_GLOBAL_PADDING | OPT_AUTHENTICATED_LENGTH,
  },
  { security: SEC_NONE, options: OPT_CHUNK_STREAM | OPT_CHUNK_MASKING },
  { security: SEC_NONE, options: OPT_CHUNK_STREAM },
];

for (const c of combos) {
  Deno.test(`body chunks round-trip and reject tampering (security ${c.security}, options ${c.options})`, () => {
    const p = { ...c, key: new Uint8Array(16).fill(9), iv: new Uint8Array(16).fill(4), packet: false };
    const sealer = new ChunkSealer(p);
    const opener = new ChunkOpener(p);
    const wire = new Uint8Array(200_000);
    let w = 0;
    const sent: Uint8Array[] = [];
    for (const n of [1, 100, 16384, 5000, 0]) {
      const data = crypto.getRandomValues(new Uint8Array(n));
      sent.push(data);
      w += sealer.seal(data, wire.subarray(w));
    }
    // Feed byte by byte at first, then in bulk: partial chunks must wait, not fail.
    let r = 0;
    for (const data of sent) {
      let got;
      let end = r;
      while (!(got = opener.open(wire.subarray(r, end)))) end++;
      assert.deepEqual(wire.slice(r + got.start, r + got.start + got.length), data);
      r += got.consumed;
    }
    assert.equal(r, w);
    if (c.security !== SEC_NONE) {
      const o2 = new ChunkOpener(p);
      const s2 = new ChunkSealer(p);
      const one = new Uint8Array(200);
      const n = s2.seal(new Uint8Array(50), one);
      one[s2.sizeBytes + 5] ^= 1; // inside the sealed payload (the tail may be unauthenticated padding)
      assert.throws(() => o2.open(one.subarray(0, n)), ProtocolError);
    }
  });
}

Deno.test("replay filter refuses an auth id seen in the window and forgets old ones", () => {
  const f = new ReplayFilter(240);
  const id = new Uint8Array(16).fill(3);
  assert.equal(f.add(id, 1000), true);
  assert.equal(f.add(id, 1100), false);
  assert.equal(f.add(id, 1300), false);
  assert.equal(f.add(id, 2000), true);
});
