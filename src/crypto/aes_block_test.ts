/** Single-block AES against FIPS-197 Appendix C and the openssl CLI, for both providers. */
import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { type AesBlockFactory, nodeAesBlock, opensslAesBlockFactory } from "./aes_block.ts";
import { loadLibcrypto } from "./libcrypto.ts";
import { createAesBlock } from "./mod.ts";
import { hex, openssl, toHex } from "./test_util.ts";

const lib = loadLibcrypto();
const FACTORIES: [string, AesBlockFactory][] = [["node:crypto", nodeAesBlock]];
if (lib) FACTORIES.push(["openssl", opensslAesBlockFactory(lib)]);

const FIPS197: [string, string][] = [
  ["000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"],
  ["000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"],
  ["000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"],
];

Deno.test("both AES block providers are available under -A", () => {
  equal(FACTORIES.length, 2, "libcrypto did not load: run with -A");
});

for (const [id, factory] of FACTORIES) {
  Deno.test(`${id}: AES block gives FIPS-197 C.1-C.3, in place too, repeatedly`, () => {
    const pt = hex("00112233445566778899aabbccddeeff");
    for (const [key, ct] of FIPS197) {
      const b = factory(hex(key));
      const out = new Uint8Array(16);
      for (let i = 0; i < 3; i++) { // the context is reused: no state between blocks
        b.encrypt(pt, out);
        equal(toHex(out), ct);
      }
      b.decrypt(out, out);
      deepStrictEqual(out, pt);
      b.dispose();
      b.dispose();
    }
    throws(() => factory(new Uint8Array(20)), RangeError);
    const b = factory(new Uint8Array(16));
    throws(() => b.encrypt(new Uint8Array(15), new Uint8Array(16)), RangeError);
    b.dispose();
  });
}

Deno.test("createAesBlock agrees with openssl enc -aes-128-ecb on random blocks", async () => {
  const key = crypto.getRandomValues(new Uint8Array(16));
  const blocks = crypto.getRandomValues(new Uint8Array(16 * 8));
  const want = await openssl(["enc", "-aes-128-ecb", "-nopad", "-K", toHex(key)], blocks);
  const b = createAesBlock(key);
  const got = new Uint8Array(blocks.length);
  for (let i = 0; i < blocks.length; i += 16) b.encrypt(blocks.subarray(i, i + 16), got.subarray(i, i + 16));
  deepStrictEqual(got, want);
  b.dispose();
});
