import assert from "node:assert/strict";
import { blake3 } from "@noble/hashes/blake3.js";
import { aeadSubkey, evpBytesToKey, identitySubkey, pskHash, sessionSubkey } from "./kdf.ts";
import { decodePsk, methodOf, passwordKeys } from "./method.ts";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const toB64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

Deno.test("EVP_BytesToKey(MD5) matches `openssl enc -md md5 -nosalt -k test-password -P`", () => {
  // Key (and for 256 bits, key‖IV of the 128-bit run) as printed by OpenSSL 3.0.
  assert.equal(hex(evpBytesToKey("test-password", 16)), "dfb450efddbb5387197c84460623675b");
  assert.equal(
    hex(evpBytesToKey("test-password", 32)),
    "dfb450efddbb5387197c84460623675b69f2cebcd8ef520a3dfddef7c3d540b2",
  );
});

Deno.test("SIP004 subkey is HKDF-SHA1 with info ss-subkey and the key's length", async () => {
  const key = evpBytesToKey("test-password", 32), salt = new Uint8Array(32).fill(7);
  const raw = await crypto.subtle.importKey("raw", new Uint8Array(key), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-1", salt, info: new TextEncoder().encode("ss-subkey") },
    raw,
    256,
  );
  assert.equal(hex(aeadSubkey(key, salt)), hex(new Uint8Array(bits)));
});

Deno.test("SIP022 session subkey: published vector (urban-spork AEAD2022TestCase)", () => {
  const key = b64("Lc3tTx0BY6ZJ/fCwOx3JvF0I/anhwJBO5p2+FA5Vce4=");
  const salt = b64("3oFO0VyLyGI4nFN0M9P+62vPND/L6v8IingaPJWTbJA=");
  assert.equal(toB64(sessionSubkey(key, salt)), "EdNE+4U8dVnHT0+poAFDK2bdlwfrHT61sUNr9WYPh+E=");
});

Deno.test("SIP022 identity subkey context: published BLAKE3 derive_key vector", () => {
  // derive_key("shadowsocks 2022 identity subkey", material) with key ‖ salt split anywhere.
  const material = new TextEncoder().encode("Personal search-enabled assistant for programmers");
  const out = identitySubkey(material.subarray(0, 32), material.subarray(32));
  assert.equal(toB64(out), "nb91ZIjdNzFcPmGRS3Lg7m+muVqat549+RSDluyVN4c=");
  assert.equal(hex(pskHash(material)), hex(blake3(material).subarray(0, 16)));
});

Deno.test("PSKs: base64 of the exact size, chains for identity headers", () => {
  const m = methodOf("2022-blake3-aes-128-gcm");
  assert.throws(() => decodePsk(m, btoa("x".repeat(15))), /base64 key of 16 bytes.*got 15/);
  assert.throws(() => decodePsk(m, "%%%"), /not valid base64/);
  const k = btoa("k".repeat(16)), u = btoa("u".repeat(16));
  assert.equal(passwordKeys(m, `${k}:${u}`).length, 2);
  assert.throws(
    () =>
      passwordKeys(
        methodOf("2022-blake3-chacha20-poly1305"),
        `${btoa("k".repeat(32))}:${btoa("u".repeat(32))}`,
      ),
    /no identity headers/,
  );
  assert.throws(() => passwordKeys(methodOf("aes-128-gcm"), ""), /must not be empty/);
});
