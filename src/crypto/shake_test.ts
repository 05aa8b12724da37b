/** SHAKE128 as a stream, against the published empty-input output, node:crypto and openssl. */
import { deepStrictEqual, equal } from "node:assert/strict";
import { createHash } from "node:crypto";
import { Shake128Stream } from "./mod.ts";
import { openssl, toHex } from "./test_util.ts";

Deno.test("Shake128Stream gives SHAKE128('') and reads on across block boundaries", () => {
  const s = new Shake128Stream(new Uint8Array(0));
  const first = new Uint8Array(32);
  s.read(first);
  equal(toHex(first), "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26");
  equal(s.nextUint16(), 0x3cb1); // bytes 32, 33 of the same output (openssl dgst -shake128)
});

Deno.test("Shake128Stream read in ragged pieces equals one long SHAKE128 output", () => {
  const seed = crypto.getRandomValues(new Uint8Array(16));
  const want = new Uint8Array(createHash("shake128", { outputLength: 1000 }).update(seed).digest());
  const s = new Shake128Stream(seed);
  const got = new Uint8Array(1000);
  let off = 0;
  for (let step = 1; off < 1000; step = (step * 7) % 200 + 1) {
    if (step % 3 === 0 && off + 2 <= 1000) {
      const v = s.nextUint16();
      got[off] = v >> 8;
      got[off + 1] = v & 0xff;
      off += 2;
    } else {
      const n = Math.min(step, 1000 - off);
      s.read(got.subarray(off, off + n));
      off += n;
    }
  }
  deepStrictEqual(got, want);
});

Deno.test("Shake128Stream agrees with openssl dgst -shake128", async () => {
  const seed = crypto.getRandomValues(new Uint8Array(16));
  const out = new TextDecoder().decode(await openssl(["dgst", "-shake128", "-xoflen", "400", "-r"], seed));
  const got = new Uint8Array(400);
  new Shake128Stream(seed).read(got);
  equal(toHex(got), out.split(" ")[0]);
});
