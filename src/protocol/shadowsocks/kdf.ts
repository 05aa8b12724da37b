/**
 * Key derivation for shadowsocks: EVP_BytesToKey(MD5) for AEAD passwords (SIP004), HKDF-SHA1
 * "ss-subkey" per salt, and the BLAKE3 derive_key contexts of SIP022, from src/crypto; AES-ECB
 * on single blocks (identity and UDP headers) is node:crypto.
 */
import { createCipheriv, createDecipheriv } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import { blake3DeriveKey, evpBytesToKey as evp, hkdfSha1 } from "../../crypto/mod.ts";

const SESSION_CONTEXT = "shadowsocks 2022 session subkey";
const IDENTITY_CONTEXT = "shadowsocks 2022 identity subkey";

/** OpenSSL's EVP_BytesToKey with MD5 and one iteration, as every AEAD shadowsocks derives its key. */
export function evpBytesToKey(password: string, keySize: number): Uint8Array {
  return evp(password, keySize);
}

/** SIP004 per-session subkey: HKDF-SHA1(key, salt, "ss-subkey"). */
export function aeadSubkey(key: Uint8Array, salt: Uint8Array): Uint8Array {
  return hkdfSha1(key, salt, "ss-subkey", key.length);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const m = new Uint8Array(a.length + b.length);
  m.set(a);
  m.set(b, a.length);
  return m;
}

/** SIP022 session subkey: BLAKE3 derive_key("shadowsocks 2022 session subkey", key || salt). */
export function sessionSubkey(key: Uint8Array, salt: Uint8Array): Uint8Array {
  return blake3DeriveKey(SESSION_CONTEXT, concat(key, salt), key.length);
}

/** SIP022 identity subkey for one hop of the identity header chain. */
export function identitySubkey(ipsk: Uint8Array, salt: Uint8Array): Uint8Array {
  return blake3DeriveKey(IDENTITY_CONTEXT, concat(ipsk, salt), ipsk.length);
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
