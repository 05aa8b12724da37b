/**
 * VMess AEAD request and response header sealing (v2fly "VMess AEAD" document). Request on the
 * wire: authId(16) | sealed length(2+16) | nonce(8) | sealed header(n+16). The auth id is
 * AES-128-ECB(KDF16(cmdKey, "AES Auth ID Encryption"), time(8) | random(4) | crc32(first 12)).
 * Pure functions over Uint8Array: time and randomness come in as arguments.
 */
import { createCipheriv, createDecipheriv } from "node:crypto";
import { createAead } from "../../crypto/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { crc32, kdf, kdf16 } from "./kdf.ts";

export const AUTH_ID_SIZE = 16;
/** authId + sealed length + nonce: what the server needs before it knows the header's length. */
export const SEALED_PREFIX_SIZE = 16 + 18 + 8;

export function authIdKey(cmdKey: Uint8Array): Uint8Array {
  return kdf16(cmdKey, "AES Auth ID Encryption");
}

export function createAuthId(cmdKey: Uint8Array, nowSeconds: number, random4: Uint8Array): Uint8Array {
  const plain = new Uint8Array(16);
  const v = new DataView(plain.buffer);
  v.setBigUint64(0, BigInt(Math.floor(nowSeconds)));
  plain.set(random4.subarray(0, 4), 8);
  v.setUint32(12, crc32(plain.subarray(0, 12)));
  const c = createCipheriv("aes-128-ecb", authIdKey(cmdKey), null).setAutoPadding(false);
  return new Uint8Array(c.update(plain));
}

/** Decrypts an auth id with one user's key: its timestamp (seconds) when the checksum holds, else -1. */
export function openAuthId(idKey: Uint8Array, authId: Uint8Array): number {
  const d = createDecipheriv("aes-128-ecb", idKey, null).setAutoPadding(false);
  const plain = new Uint8Array(d.update(authId));
  const v = new DataView(plain.buffer);
  if (v.getUint32(12) !== crc32(plain.subarray(0, 12))) return -1;
  return Number(v.getBigUint64(0));
}

/** One-shot AES-128-GCM (the provider may hold native state: dispose it at once). */
function gcm(
  key: Uint8Array,
  op: "seal" | "open",
  nonce: Uint8Array,
  input: Uint8Array,
  out: Uint8Array,
  aad?: Uint8Array,
) {
  const a = createAead("aes-128-gcm", key);
  try {
    return op === "seal" ? a.seal(nonce, input, out, aad) : a.open(nonce, input, out, aad);
  } finally {
    a.dispose();
  }
}

export function sealRequestHeader(
  cmdKey: Uint8Array,
  header: Uint8Array,
  nowSeconds: number,
  random12: Uint8Array,
): Uint8Array {
  const authId = createAuthId(cmdKey, nowSeconds, random12.subarray(0, 4));
  const nonce = random12.subarray(4, 12);
  const out = new Uint8Array(SEALED_PREFIX_SIZE + header.length + 16);
  out.set(authId, 0);
  const len = new Uint8Array([header.length >> 8, header.length & 255]);
  gcm(
    kdf16(cmdKey, "VMess Header AEAD Key_Length", authId, nonce),
    "seal",
    kdf(cmdKey, "VMess Header AEAD Nonce_Length", authId, nonce).subarray(0, 12),
    len,
    out.subarray(16, 34),
    authId,
  );
  out.set(nonce, 34);
  gcm(
    kdf16(cmdKey, "VMess Header AEAD Key", authId, nonce),
    "seal",
    kdf(cmdKey, "VMess Header AEAD Nonce", authId, nonce).subarray(0, 12),
    header,
    out.subarray(SEALED_PREFIX_SIZE),
    authId,
  );
  return out;
}

/** Opens the sealed length from the 42-byte prefix; -1 when it does not authenticate. */
export function openRequestLength(cmdKey: Uint8Array, prefix: Uint8Array): number {
  const authId = prefix.subarray(0, 16);
  const nonce = prefix.subarray(34, 42);
  const out = new Uint8Array(2);
  const n = gcm(
    kdf16(cmdKey, "VMess Header AEAD Key_Length", authId, nonce),
    "open",
    kdf(cmdKey, "VMess Header AEAD Nonce_Length", authId, nonce).subarray(0, 12),
    prefix.subarray(16, 34),
    out,
    authId,
  );
  return n === 2 ? (out[0] << 8) | out[1] : -1;
}

/** Opens the sealed header that follows the prefix (`sealed` is length + 16 bytes). */
export function openRequestHeader(cmdKey: Uint8Array, prefix: Uint8Array, sealed: Uint8Array): Uint8Array {
  const authId = prefix.subarray(0, 16);
  const nonce = prefix.subarray(34, 42);
  const out = new Uint8Array(sealed.length);
  const n = gcm(
    kdf16(cmdKey, "VMess Header AEAD Key", authId, nonce),
    "open",
    kdf(cmdKey, "VMess Header AEAD Nonce", authId, nonce).subarray(0, 12),
    sealed,
    out,
    authId,
  );
  if (n < 0) throw new ProtocolError("VMess header does not authenticate");
  return out.subarray(0, n);
}

/** Response header: sealed length(18) | sealed [respV, option, cmd=0, cmdLen=0] (20). */
export function sealResponseHeader(respKey: Uint8Array, respIv: Uint8Array, respV: number): Uint8Array {
  const out = new Uint8Array(38);
  gcm(
    kdf16(respKey, "AEAD Resp Header Len Key"),
    "seal",
    kdf(respIv, "AEAD Resp Header Len IV").subarray(0, 12),
    new Uint8Array([0, 4]),
    out.subarray(0, 18),
  );
  gcm(
    kdf16(respKey, "AEAD Resp Header Key"),
    "seal",
    kdf(respIv, "AEAD Resp Header IV").subarray(0, 12),
    new Uint8Array([respV, 0, 0, 0]),
    out.subarray(18),
  );
  return out;
}

/** Opens the response length (from 18 bytes); throws when it does not authenticate. */
export function openResponseLength(respKey: Uint8Array, respIv: Uint8Array, sealed: Uint8Array): number {
  const out = new Uint8Array(2);
  const n = gcm(
    kdf16(respKey, "AEAD Resp Header Len Key"),
    "open",
    kdf(respIv, "AEAD Resp Header Len IV").subarray(0, 12),
    sealed,
    out,
  );
  if (n !== 2) throw new ProtocolError("VMess response header does not authenticate (wrong user or server?)");
  return (out[0] << 8) | out[1];
}

export function openResponseHeader(respKey: Uint8Array, respIv: Uint8Array, sealed: Uint8Array): Uint8Array {
  const out = new Uint8Array(sealed.length);
  const n = gcm(
    kdf16(respKey, "AEAD Resp Header Key"),
    "open",
    kdf(respIv, "AEAD Resp Header IV").subarray(0, 12),
    sealed,
    out,
  );
  if (n < 4) throw new ProtocolError("VMess response header does not authenticate");
  return out.subarray(0, n);
}
