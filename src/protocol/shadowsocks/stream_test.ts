/**
 * Client ↔ server streams in memory: every method round-trips; the SIP022 request has the byte
 * layout of the spec (checked with node:crypto and BLAKE3 directly, not through our codec); replays,
 * skewed clocks, oversized lengths and fuzzed requests are refused with a ProtocolError, never a
 * crash or a hang.
 */
import assert from "node:assert/strict";
import { createDecipheriv } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { clientConn } from "./client.ts";
import { methodOf, passwordKeys } from "./method.ts";
import { SaltFilter } from "./salt_filter.ts";
import { serverHandshake } from "./server.ts";
import { buildUserTable } from "./users.ts";

/** A Conn that records writes and replays `input` then EOF. */
class ScriptConn implements Conn {
  written: Uint8Array[] = [];
  private off = 0;
  constructor(private readonly input: Uint8Array = new Uint8Array(0)) {}
  read(p: Uint8Array): Promise<number | null> {
    if (this.off >= this.input.length) return Promise.resolve(null);
    const n = Math.min(p.length, this.input.length - this.off, 1 + (this.off % 977));
    p.set(this.input.subarray(this.off, this.off + n));
    this.off += n;
    return Promise.resolve(n);
  }
  write(p: Uint8Array): Promise<number> {
    this.written.push(p.slice());
    return Promise.resolve(p.length);
  }
  closeWrite(): Promise<void> {
    return Promise.resolve();
  }
  close(): void {}
  bytes(): Uint8Array {
    const out = new Uint8Array(this.written.reduce((s, b) => s + b.length, 0));
    let o = 0;
    for (const b of this.written) (out.set(b, o), o += b.length);
    return out;
  }
}

const KEYS: Record<string, string> = {
  "none": "",
  "aes-128-gcm": "pw",
  "aes-256-gcm": "pw",
  "chacha20-ietf-poly1305": "pw",
  "2022-blake3-aes-128-gcm": btoa("a".repeat(16)),
  "2022-blake3-aes-256-gcm": btoa("b".repeat(32)),
  "2022-blake3-chacha20-poly1305": btoa("c".repeat(32)),
};

/** The client's request bytes for `payload` (first write) to 127.0.0.1:80. */
async function request(method: string, payload: Uint8Array, now = Date.now): Promise<Uint8Array> {
  const wire = new ScriptConn();
  const m = methodOf(method);
  const c = clientConn(wire, { host: "127.0.0.1", port: 80 }, {
    method: m,
    keys: passwordKeys(m, KEYS[method]),
    now,
  });
  await c.write(payload);
  return wire.bytes();
}

function server(method: string, salts = new SaltFilter(), now = Date.now) {
  const m = methodOf(method);
  const table = buildUserTable(m, KEYS[method], undefined);
  return (input: Uint8Array) =>
    serverHandshake(new ScriptConn(input), { method: m, users: () => table, salts, now });
}

for (const method of Object.keys(KEYS)) {
  Deno.test(`${method}: request round trip, large payload split in chunks`, async () => {
    const payload = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
    const req = await request(method, payload);
    const got = await server(method)(req);
    assert.deepEqual(got.destination, { host: "127.0.0.1", port: 80 });
    const buf = new Uint8Array(300_000);
    let n = 0;
    for (let k; (k = await got.conn.read(buf.subarray(n))) !== null;) n += k;
    assert.equal(n, payload.length);
    assert.deepEqual(buf.subarray(0, n), payload);
  });
}

for (const method of Object.keys(KEYS).filter((m) => m !== "none")) {
  Deno.test(`${method}: a replayed request is refused`, async () => {
    const serve = server(method);
    const req = await request(method, new TextEncoder().encode("GET / HTTP/1.1\r\n\r\n"));
    await serve(req);
    await assert.rejects(serve(req), /Replayed salt/);
  });

  Deno.test(`${method}: fuzzed requests give a ProtocolError, never a crash or a hang`, async () => {
    const req = await request(method, new TextEncoder().encode("hello"));
    const serve = server(method);
    const inputs: Uint8Array[] = [];
    for (let i = 0; i < 150; i++) {
      const r = crypto.getRandomValues(new Uint8Array(Math.floor(Math.random() * 300)));
      inputs.push(r);
      inputs.push(req.subarray(0, Math.floor(Math.random() * req.length)));
      const mutated = req.slice();
      mutated[Math.floor(Math.random() * mutated.length)] ^= 1 + Math.floor(Math.random() * 255);
      inputs.push(mutated);
    }
    for (const input of inputs) {
      await assert.rejects(serve(input), (e) => e instanceof ProtocolError);
    }
  });
}

Deno.test("SIP004: an oversized chunk length is refused", async () => {
  // A valid salt and key but a sealed length of 0x4000 (> 0x3FFF).
  const { createAead } = await import("../../crypto/mod.ts");
  const { aeadSubkey } = await import("./kdf.ts");
  const m = methodOf("aes-128-gcm");
  const salt = new Uint8Array(16).fill(9);
  const a = createAead(m.aead, aeadSubkey(passwordKeys(m, "pw")[0], salt));
  const sealed = new Uint8Array(18);
  a.seal(new Uint8Array(12), new Uint8Array([0x40, 0x00]), sealed);
  const input = new Uint8Array([...salt, ...sealed, ...new Uint8Array(100)]);
  await assert.rejects(server("aes-128-gcm")(input), /Chunk length 16384 exceeds 16383/);
});

Deno.test("SIP022 request bytes follow the spec (decoded here with node:crypto and BLAKE3)", async () => {
  const t = 1_700_000_000_000;
  const psk = new Uint8Array(16).fill(0x61);
  const req = await request("2022-blake3-aes-128-gcm", new TextEncoder().encode("GET"), () => t);
  const salt = req.subarray(0, 16);
  const key = blake3(new Uint8Array([...psk, ...salt]), {
    context: new TextEncoder().encode("shadowsocks 2022 session subkey"),
    dkLen: 16,
  });
  const open = (nonce: number, sealed: Uint8Array) => {
    const iv = new Uint8Array(12);
    iv[0] = nonce;
    const d = createDecipheriv("aes-128-gcm", key, iv);
    d.setAuthTag(sealed.subarray(sealed.length - 16));
    return new Uint8Array([...d.update(sealed.subarray(0, sealed.length - 16)), ...d.final()]);
  };
  const fixed = open(0, req.subarray(16, 16 + 11 + 16));
  assert.equal(fixed[0], 0, "type: client request");
  assert.equal(new DataView(fixed.buffer).getBigUint64(1), BigInt(t / 1000), "timestamp, big-endian seconds");
  const varLen = (fixed[9] << 8) | fixed[10];
  const variable = open(1, req.subarray(43, 43 + varLen + 16));
  assert.deepEqual([...variable.subarray(0, 7)], [1, 127, 0, 0, 1, 0, 80], "SOCKS address 127.0.0.1:80");
  assert.deepEqual([...variable.subarray(7, 9)], [0, 0], "no padding: payload present");
  assert.equal(new TextDecoder().decode(variable.subarray(9)), "GET");
  assert.equal(req.length, 43 + varLen + 16, "nothing else: the payload rode in the header");
});

Deno.test("SIP022: a request more than 30 s off is refused; the response echoes the request salt", async () => {
  const now = Date.now();
  const req = await request("2022-blake3-aes-256-gcm", new Uint8Array([1]), () => now - 31_000);
  await assert.rejects(server("2022-blake3-aes-256-gcm")(req), /Bad timestamp/);
  const ok = await request("2022-blake3-aes-256-gcm", new Uint8Array([1]), () => now - 29_000);
  const got = await server("2022-blake3-aes-256-gcm")(ok);
  const wire = got.conn as unknown as { inner: ScriptConn };
  await got.conn.write(new TextEncoder().encode("answer"));
  const resp = wire.inner.bytes();
  assert.equal(resp.length, 32 + (1 + 8 + 32 + 2 + 16) + 6 + 16, "salt, fixed header, first chunk");
});

Deno.test("SaltFilter stays bounded under a flood", () => {
  const f = new SaltFilter(1000, 60_000);
  for (let i = 0; i < 10_000; i++) assert.ok(f.add(crypto.getRandomValues(new Uint8Array(16))));
  assert.ok(f.size <= 2000);
  const s = new Uint8Array(16).fill(1);
  assert.ok(f.add(s));
  assert.ok(!f.add(s));
});
