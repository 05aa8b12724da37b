/** Digests against published vectors (FIPS 180, RFC 1321, RFC 4231, FNV) and the openssl CLI. */
import { equal } from "node:assert/strict";
import { fnv1a32, hmacSha256, md5, sha1, sha224, sha256 } from "./mod.ts";
import { openssl, toHex } from "./test_util.ts";

Deno.test("digests give the published answers, parts concatenated", () => {
  equal(toHex(md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  equal(toHex(md5("a", "bc")), "900150983cd24fb0d6963f7d28e17f72");
  equal(toHex(sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  equal(toHex(sha224("abc")), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
  equal(
    toHex(sha256(new TextEncoder().encode("ab"), "c")),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  // RFC 4231 test case 2.
  equal(
    toHex(hmacSha256("Jefe", "what do ya want ", "for nothing?")),
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  );
  equal(md5("x").constructor, Uint8Array);
});

Deno.test("HMAC-SHA256 agrees with openssl on random keys and messages", async () => {
  for (const [klen, mlen] of [[1, 0], [32, 100], [64, 1000], [100, 5]]) {
    const key = crypto.getRandomValues(new Uint8Array(klen));
    const msg = crypto.getRandomValues(new Uint8Array(mlen));
    const out = new TextDecoder().decode(
      await openssl(["dgst", "-sha256", "-mac", "HMAC", "-macopt", `hexkey:${toHex(key)}`, "-r"], msg),
    );
    equal(toHex(hmacSha256(key, msg)), out.split(" ")[0]);
  }
});

Deno.test("FNV-1a 32 gives the published answers", () => {
  const enc = new TextEncoder();
  equal(fnv1a32(enc.encode("")), 0x811c9dc5);
  equal(fnv1a32(enc.encode("a")), 0xe40c292c);
  equal(fnv1a32(enc.encode("foobar")), 0xbf9cf968);
});
