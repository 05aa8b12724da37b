/**
 * AEAD providers against published vectors (NIST GCM test cases from McGrew & Viega, RFC 8439
 * §2.8.2) and against each other. Run with -A: without --allow-ffi only the node provider is
 * tested, and the test that needs OpenSSL fails rather than passing vacuously.
 */
import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { AEAD_KEY_SIZE, type AeadName, type AeadProvider, createAead } from "./mod.ts";
import { getNodeAeadProvider, getOpensslAeadProvider } from "./mod.ts";
import { hex, toHex } from "./test_util.ts";

const openssl = getOpensslAeadProvider();
const node = getNodeAeadProvider();
const PROVIDERS: AeadProvider[] = openssl ? [openssl, node] : [node];
const NAMES: AeadName[] = ["aes-128-gcm", "aes-192-gcm", "aes-256-gcm", "chacha20-poly1305"];

const GCM_P = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" +
  "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
const GCM_A = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
const RFC8439_P = new TextEncoder().encode(
  "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.",
);

/** [name, key, nonce, plaintext, aad, ciphertext ‖ tag] */
const VECTORS: [AeadName, string, string, string | Uint8Array, string, string][] = [
  // GCM test case 1: empty everything.
  ["aes-128-gcm", "00".repeat(16), "00".repeat(12), "", "", "58e2fccefa7e3061367f1d57a4e7455a"],
  // Test case 2: one zero block.
  [
    "aes-128-gcm",
    "00".repeat(16),
    "00".repeat(12),
    "00".repeat(16),
    "",
    "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf",
  ],
  // Test case 4: AAD and a partial last block.
  [
    "aes-128-gcm",
    "feffe9928665731c6d6a8f9467308308",
    "cafebabefacedbaddecaf888",
    GCM_P,
    GCM_A,
    "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e" +
    "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091" + "5bc94fbc3221a5db94fae95ae7121a47",
  ],
  // Test cases 7 and 8 (AES-192).
  ["aes-192-gcm", "00".repeat(24), "00".repeat(12), "", "", "cd33b28ac773f74ba00ed1f312572435"],
  [
    "aes-192-gcm",
    "00".repeat(24),
    "00".repeat(12),
    "00".repeat(16),
    "",
    "98e7247c07f0fe411c267e4384b0f6002ff58d80033927ab8ef4d4587514f0fb",
  ],
  // Test cases 14 and 16 (AES-256).
  [
    "aes-256-gcm",
    "00".repeat(32),
    "00".repeat(12),
    "00".repeat(16),
    "",
    "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919",
  ],
  [
    "aes-256-gcm",
    "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
    "cafebabefacedbaddecaf888",
    GCM_P,
    GCM_A,
    "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa" +
    "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662" + "76fc6ece0f4e1768cddf8853bb2d551b",
  ],
  // RFC 8439 §2.8.2.
  [
    "chacha20-poly1305",
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
    "070000004041424344454647",
    RFC8439_P,
    "50515253c0c1c2c3c4c5c6c7",
    "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6" +
    "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36" +
    "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc" +
    "3ff4def08e4b7a9de576d26586cec64b6116" + "1ae10b594f09e26a7e902ecbd0600691",
  ],
];

Deno.test("the OpenSSL provider loads under -A and createAead uses it", () => {
  ok(openssl, "libcrypto.so.3 did not load: these tests must run with -A on a machine with OpenSSL 3");
  const a = createAead("aes-128-gcm", new Uint8Array(16));
  equal(a.constructor.name, "OpenSslAead");
  a.dispose();
});

for (const p of PROVIDERS) {
  Deno.test(`${p.id}: published vectors seal and open`, () => {
    for (const [name, key, nonce, plain, aad, sealed] of VECTORS) {
      const pt = typeof plain === "string" ? hex(plain) : plain;
      const a = p.create(name, hex(key));
      const out = new Uint8Array(pt.length + 16);
      const ad = aad ? hex(aad) : undefined;
      equal(a.seal(hex(nonce), pt, out, ad), pt.length + 16);
      equal(toHex(out), sealed, `${name} seal`);
      const back = new Uint8Array(pt.length);
      equal(a.open(hex(nonce), hex(sealed), back, ad), pt.length, `${name} open`);
      deepStrictEqual(back, pt);
      a.dispose();
    }
  });

  Deno.test(`${p.id}: in place, tampering and bad arguments`, () => {
    for (const name of NAMES) {
      const a = p.create(name, crypto.getRandomValues(new Uint8Array(AEAD_KEY_SIZE[name])));
      const nonce = crypto.getRandomValues(new Uint8Array(12));
      const aad = hex("0102030405");
      const msg = crypto.getRandomValues(new Uint8Array(100));
      // In place: plaintext at buf[0..100), sealed over the same memory.
      const buf = new Uint8Array(116);
      buf.set(msg);
      equal(a.seal(nonce, buf.subarray(0, 100), buf, aad), 116);
      const sealed = buf.slice();
      equal(a.open(nonce, buf, buf, aad), 100);
      deepStrictEqual(buf.subarray(0, 100), msg);

      const out = new Uint8Array(100);
      for (const at of [0, 99, 100, 115]) { // ciphertext bytes and tag bytes
        const bad = sealed.slice();
        bad[at] ^= 1;
        equal(a.open(nonce, bad, out, aad), -1, `${name} flipped byte ${at}`);
      }
      equal(a.open(nonce, sealed, out, hex("0102030406")), -1, `${name} other AAD`);
      equal(a.open(nonce, sealed, out), -1, `${name} missing AAD`);
      equal(a.open(nonce.map((x, i) => i === 0 ? x ^ 1 : x), sealed, out, aad), -1, `${name} other nonce`);
      equal(a.open(nonce, sealed.subarray(0, 15), out, aad), -1, `${name} shorter than a tag`);
      // Still works after failures (the context is reset by each IV).
      equal(a.open(nonce, sealed, out, aad), 100);
      a.dispose();
      a.dispose(); // twice is fine
    }
    for (
      const [name, size] of [["aes-128-gcm", 32], ["aes-256-gcm", 16], ["chacha20-poly1305", 16]] as const
    ) {
      throws(() => p.create(name, new Uint8Array(size)), RangeError);
    }
    throws(() => p.create("aes-128-ccm" as AeadName, new Uint8Array(16)), RangeError);
  });
}

Deno.test("OpenSSL and node providers agree on random sizes, with and without AAD", () => {
  ok(openssl, "needs the OpenSSL provider (run with -A)");
  for (const name of NAMES) {
    const key = crypto.getRandomValues(new Uint8Array(AEAD_KEY_SIZE[name]));
    const o = openssl.create(name, key), n = node.create(name, key);
    for (const size of [0, 1, 15, 16, 17, 16383, 16384]) {
      for (const aad of [undefined, crypto.getRandomValues(new Uint8Array(1 + size % 40))]) {
        const nonce = crypto.getRandomValues(new Uint8Array(12));
        const pt = crypto.getRandomValues(new Uint8Array(size));
        const a = new Uint8Array(size + 16), b = new Uint8Array(size + 16);
        equal(o.seal(nonce, pt, a, aad), size + 16);
        equal(n.seal(nonce, pt, b, aad), size + 16);
        deepStrictEqual(a, b, `${name} ${size} aad=${!!aad}`);
        const back = new Uint8Array(size);
        equal(n.open(nonce, a, back, aad), size);
        deepStrictEqual(back, pt);
        back.fill(0);
        equal(o.open(nonce, b, back, aad), size);
        deepStrictEqual(back, pt);
      }
    }
    o.dispose();
  }
});

Deno.test("OpenSSL AEAD refuses use after dispose and short buffers", () => {
  ok(openssl, "needs the OpenSSL provider (run with -A)");
  const a = openssl.create("aes-128-gcm", new Uint8Array(16));
  throws(() => a.seal(new Uint8Array(12), new Uint8Array(10), new Uint8Array(25)), RangeError);
  throws(() => a.seal(new Uint8Array(8), new Uint8Array(10), new Uint8Array(26)), RangeError);
  a.dispose();
  throws(() => a.seal(new Uint8Array(12), new Uint8Array(10), new Uint8Array(26)), TypeError);
  throws(() => a.open(new Uint8Array(12), new Uint8Array(26), new Uint8Array(10)), TypeError);
});

Deno.test("without --allow-ffi createAead falls back to node:crypto", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const script = `${dir}/probe.ts`;
    const mod = new URL("./mod.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { createAead, getAeadProvider } from "${mod}";\n` +
        `const a = createAead("aes-128-gcm", new Uint8Array(16));\n` +
        `const out = new Uint8Array(16);\n` +
        `console.log(getAeadProvider().id, a.seal(new Uint8Array(12), new Uint8Array(0), out));\n`,
    );
    const config = new URL("../../deno.json", import.meta.url).pathname;
    const res = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--allow-read", "--allow-env", "--config", config, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(res.stdout).trim();
    equal(res.code, 0, new TextDecoder().decode(res.stderr));
    equal(stdout, "node:crypto 16");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("OpenSSL AEAD stays correct on small fresh buffers once calls are JIT-optimized", () => {
  // Small typed arrays live on V8's heap and hot FFI calls take the fast-call path: check that
  // the pair still reads and writes the right memory (a 2-byte length frame, as shadowsocks seals).
  ok(openssl, "needs the OpenSSL provider (run with -A)");
  const key = crypto.getRandomValues(new Uint8Array(16));
  const o = openssl.create("aes-128-gcm", key), n = node.create("aes-128-gcm", key);
  const nonce = new Uint8Array(12);
  const want = new Uint8Array(18);
  n.seal(nonce, Uint8Array.of(0x12, 0x34), want);
  for (let i = 0; i < 20000; i++) {
    const sealed = new Uint8Array(18);
    o.seal(nonce, Uint8Array.of(0x12, 0x34), sealed);
    const back = new Uint8Array(2);
    if (
      o.open(nonce, sealed, back) !== 2 || back[0] !== 0x12 || back[1] !== 0x34 ||
      !sealed.every((b, j) => b === want[j])
    ) {
      throw new Error(`iteration ${i}: got ${toHex(sealed)}, want ${toHex(want)}`);
    }
  }
  o.dispose();
});

Deno.test("OpenSSL contexts of AEADs dropped without dispose() are freed after GC", async () => {
  // 100k AEADs never disposed held ~240 MB more native memory when nothing freed them (measured
  // with the FinalizationRegistry taken out); with it, RSS grows by a few MB.
  ok(openssl, "needs the OpenSSL provider (run with -A)");
  const dir = await Deno.makeTempDir();
  try {
    const script = `${dir}/leak.ts`;
    await Deno.writeTextFile(
      script,
      `import { getOpensslAeadProvider } from "${new URL("./mod.ts", import.meta.url).href}";\n` +
        `const p = getOpensslAeadProvider()!, gc = (globalThis as any).gc, key = new Uint8Array(32);\n` +
        `let base = 0;\n` +
        `for (let round = 0; round < 15; round++) {\n` +
        `  for (let i = 0; i < 10000; i++) p.create("aes-256-gcm", key);\n` +
        `  gc();\n` +
        `  await new Promise((r) => setTimeout(r, 0));\n` +
        `  if (round === 4) base = Deno.memoryUsage().rss;\n` +
        `}\n` +
        `console.log(Math.round((Deno.memoryUsage().rss - base) / 1e6));\n`,
    );
    const res = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--v8-flags=--expose-gc",
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(res.code, 0, new TextDecoder().decode(res.stderr));
    const grownMb = Number(new TextDecoder().decode(res.stdout).trim());
    ok(grownMb < 100, `RSS grew by ${grownMb} MB over 100k undisposed AEADs`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("OpenSSL AEAD makes each direction on first use: open-only, seal-only, disposed unused", () => {
  ok(openssl, "needs the OpenSSL provider (run with -A)");
  const key = crypto.getRandomValues(new Uint8Array(32)), nonce = new Uint8Array(12);
  const sealed = new Uint8Array(21);
  const sealer = openssl.create("chacha20-poly1305", key);
  sealer.seal(nonce, Uint8Array.of(1, 2, 3, 4, 5), sealed);
  sealer.dispose();
  const opener = openssl.create("chacha20-poly1305", key);
  const back = new Uint8Array(5);
  equal(opener.open(nonce, sealed, back), 5);
  deepStrictEqual(back, Uint8Array.of(1, 2, 3, 4, 5));
  opener.dispose();
  const unused = openssl.create("chacha20-poly1305", key);
  unused.dispose();
  throws(() => unused.open(nonce, sealed, back), TypeError);
});
