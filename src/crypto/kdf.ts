/**
 * Key derivations of the proxy protocols: HKDF-SHA1 (shadowsocks AEAD session subkeys),
 * BLAKE3 derive_key (shadowsocks 2022), EVP_BytesToKey (shadowsocks password to key).
 */
import { hkdfSync } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import { md5 } from "./hash.ts";

const utf8 = new TextEncoder();

/** HKDF-SHA1 (RFC 5869): shadowsocks derives each session's subkey with info "ss-subkey". */
export function hkdfSha1(
  ikm: Uint8Array,
  salt: Uint8Array,
  info: Uint8Array | string,
  length: number,
): Uint8Array {
  return new Uint8Array(
    hkdfSync("sha1", ikm, salt, typeof info === "string" ? utf8.encode(info) : info, length),
  );
}

/**
 * BLAKE3 in derive_key mode: `context` is the hard-coded context string, `material` the key
 * material (shadowsocks 2022: "shadowsocks 2022 session subkey", PSK ‖ salt). @noble/hashes:
 * Deno has no native BLAKE3, and this runs once per session.
 */
export function blake3DeriveKey(context: string, material: Uint8Array, length = 32): Uint8Array {
  return blake3(material, { context: utf8.encode(context), dkLen: length });
}

/**
 * OpenSSL's EVP_BytesToKey with MD5, no salt and one round, as shadowsocks turns a password into
 * a key: D1 = MD5(password), Dn = MD5(Dn-1 ‖ password), key = the first `length` bytes.
 */
export function evpBytesToKey(password: Uint8Array | string, length: number): Uint8Array {
  const pw = typeof password === "string" ? utf8.encode(password) : password;
  const key = new Uint8Array(length);
  let prev: Uint8Array = new Uint8Array(0);
  for (let off = 0; off < length; off += 16) {
    prev = md5(prev, pw);
    key.set(prev.subarray(0, Math.min(16, length - off)), off);
  }
  return key;
}
