/**
 * Key derivation for shadowsocks: EVP_BytesToKey(MD5) for AEAD passwords (SIP004), HKDF-SHA1
 * "ss-subkey" per salt, and the BLAKE3 derive_key contexts of SIP022. node:crypto covers MD5,
 * HKDF and AES-ECB; BLAKE3 comes from @noble/hashes (node:crypto has none).
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";

const SUBKEY_INFO = new TextEncoder().encode("ss-subkey");
const SESSION_CONTEXT = "shadowsocks 2022 session subkey";
const IDENTITY_CONTEXT = "shadowsocks 2022 identity subkey";

/** OpenSSL's EVP_BytesToKey with MD5 and one iteration, as every AEAD shadowsocks derives its key. */
export function evpBytesToKey(password: string, keySize: number): Uint8Array {
  const pass = new TextEncoder().encode(password);
  const out = new Uint8Array(keySize);
  let prev = new Uint8Array(0);
  for (let off = 0; off < keySize; off += 16) {
    prev = new Uint8Array(createHash("md5").update(prev).update(pass).digest());
    out.set(prev.subarray(0, Math.min(16, keySize - off)), off);
  }
  return out;
}

/** SIP004 per-session subkey: HKDF-SHA1(key, salt, "ss-subkey"). */
export function aeadSubkey(key: Uint8Array, salt: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync("sha1", key, salt, SUBKEY_INFO, key.length));
}

function deriveKey(context: string, key: Uint8Array, material: Uint8Array, size: number): Uint8Array {
  const m = new Uint8Array(key.length + material.length);
  m.set(key);
  m.set(material, key.length);
  return blake3(m, { context: new TextEncoder().encode(context), dkLen: size });
}

/** SIP022 session subkey: BLAKE3 derive_key("shadowsocks 2022 session subkey", key || salt). */
export function sessionSubkey(key: Uint8Array, salt: Uint8Array): Uint8Array {
  return deriveKey(SESSION_CONTEXT, key, salt, key.length);
}

/** SIP022 identity subkey for one hop of the identity header chain. */
export function identitySubkey(ipsk: Uint8Array, salt: Uint8Array): Uint8Array {
  return deriveKey(IDENTITY_CONTEXT, ipsk, salt, ipsk.length);
}

/** The first 16 bytes of BLAKE3(psk): what an identity header carries to name a user. */
export function pskHash(psk: Uint8Array): Uint8Array {
  return blake3(psk).subarray(0, 16);
}

function ecbName(key: Uint8Array): string {
  return key.length === 16 ? "aes-128-ecb" : "aes-256-ecb";
}

/** AES-ECB on one 16-byte block (identity headers, UDP separate headers). */
export function aesEncryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  const c = createCipheriv(ecbName(key), key, null).setAutoPadding(false);
  return new Uint8Array(c.update(block));
}

export function aesDecryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  const d = createDecipheriv(ecbName(key), key, null).setAutoPadding(false);
  return new Uint8Array(d.update(block));
}
