/** Key derivations against RFC 5869, the BLAKE3 team's vectors and the openssl CLI. */
import { deepStrictEqual, equal } from "node:assert/strict";
import { blake3DeriveKey, evpBytesToKey, hkdfSha1 } from "./mod.ts";
import { hex, openssl, toHex } from "./test_util.ts";

Deno.test("hkdfSha1 gives RFC 5869 test case 4", () => {
  const okm = hkdfSha1(
    hex("0b".repeat(11)),
    hex("000102030405060708090a0b0c"),
    hex("f0f1f2f3f4f5f6f7f8f9"),
    42,
  );
  equal(toHex(okm), "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896");
});

Deno.test('hkdfSha1 with info "ss-subkey" agrees with openssl kdf', async () => {
  for (const len of [16, 24, 32]) {
    const key = crypto.getRandomValues(new Uint8Array(len));
    const salt = crypto.getRandomValues(new Uint8Array(len));
    const out = new TextDecoder().decode(
      await openssl([
        "kdf",
        "-keylen",
        String(len),
        "-kdfopt",
        "digest:SHA1",
        "-kdfopt",
        `hexkey:${toHex(key)}`,
        "-kdfopt",
        `hexsalt:${toHex(salt)}`,
        "-kdfopt",
        "info:ss-subkey",
        "HKDF",
      ]),
    );
    equal(toHex(hkdfSha1(key, salt, "ss-subkey", len)), out.trim().replaceAll(":", "").toLowerCase());
  }
});

Deno.test("blake3DeriveKey gives the BLAKE3 test vectors (derive_key mode)", () => {
  const context = "BLAKE3 2019-12-27 16:29:52 test vectors context";
  const input = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);
  equal(
    toHex(blake3DeriveKey(context, input(0))),
    "2cc39783c223154fea8dfb7c1b1660f2ac2dcbd1c1de8277b0b0dd39b7e50d7d",
  );
  equal(
    toHex(blake3DeriveKey(context, input(1))),
    "b3e2e340a117a499c6cf2398a19ee0d29cca2bb7404c73063382693bf66cb06c",
  );
  equal(
    toHex(blake3DeriveKey(context, input(1024))),
    "7356cd7720d5b66b6d0697eb3177d9f8d73a4a5c5e968896eb6a689684302706",
  );
  // Extended output: the first 32 bytes are the default-length output.
  deepStrictEqual(blake3DeriveKey(context, input(1), 64).subarray(0, 32), blake3DeriveKey(context, input(1)));
});

Deno.test("evpBytesToKey matches openssl enc -md md5 -nosalt", async () => {
  for (const [pw, len] of [["password", 32], ["p", 16], ["Ünïcode pässwörd", 24]] as const) {
    const out = new TextDecoder().decode(
      await openssl(["enc", "-aes-256-cbc", "-md", "md5", "-nosalt", "-P", "-pass", `pass:${pw}`]),
    );
    const key = out.match(/key=([0-9A-F]+)/)![1].toLowerCase();
    equal(toHex(evpBytesToKey(pw, len)), key.slice(0, len * 2));
  }
});
