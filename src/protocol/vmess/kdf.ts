/**
 * The small primitives of VMess AEAD (v2fly's "VMess AEAD" document): the command key from a UUID,
 * the nested-HMAC KDF, CRC32 for the auth id, FNV-1a for the header checksum, SHAKE128 for size
 * masks. node:crypto does SHA-256/MD5/HMAC; the nesting (an HMAC whose hash is another HMAC) and
 * the two tiny checksums are written here because no library offers them.
 */
import { createHash, createHmac } from "node:crypto";
import { ConfigError } from "../../common/errors.ts";

const encoder = new TextEncoder();

/** Parses a UUID in its usual text form into 16 bytes. */
export function parseUuid(text: string, path = ""): Uint8Array {
  const hex = text.replaceAll("-", "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex) || !/^[0-9a-fA-F-]{32,36}$/.test(text)) {
    throw new ConfigError(path, `Invalid UUID "${text}"`);
  }
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** cmdKey = MD5(uuid || "c48619fe-8f02-49e0-b9e9-edf763e17e21"). */
export function cmdKey(uuid: Uint8Array): Uint8Array {
  return new Uint8Array(
    createHash("md5").update(uuid).update("c48619fe-8f02-49e0-b9e9-edf763e17e21").digest(),
  );
}

type Part = string | Uint8Array;
const bytes = (p: Part) => typeof p === "string" ? encoder.encode(p) : p;

/** HMAC at nesting `level`: level 0 is HMAC-SHA256 keyed "VMess AEAD KDF"; level i uses level i-1 as its hash. */
function hmacAt(path: Uint8Array[], level: number, msg: Uint8Array): Uint8Array {
  if (level === 0) return new Uint8Array(createHmac("sha256", "VMess AEAD KDF").update(msg).digest());
  let key = path[level - 1];
  if (key.length > 64) key = hmacAt(path, level - 1, key);
  const pad = new Uint8Array(64 + Math.max(msg.length, 32));
  for (let i = 0; i < 64; i++) pad[i] = (key[i] ?? 0) ^ 0x36;
  pad.set(msg, 64);
  const inner = hmacAt(path, level - 1, pad.subarray(0, 64 + msg.length));
  for (let i = 0; i < 64; i++) pad[i] = (key[i] ?? 0) ^ 0x5c;
  pad.set(inner, 64);
  return hmacAt(path, level - 1, pad.subarray(0, 64 + inner.length));
}

/** KDF(key, path...) as VMess AEAD defines it: 32 bytes. */
export function kdf(key: Uint8Array, ...path: Part[]): Uint8Array {
  const p = path.map(bytes);
  return hmacAt(p, p.length, key);
}

export function kdf16(key: Uint8Array, ...path: Part[]): Uint8Array {
  return kdf(key, ...path).subarray(0, 16);
}

export function sha256(b: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(b).digest());
}

/** ChaCha20-Poly1305 body key from a 16-byte VMess key: MD5(k) || MD5(MD5(k)). */
export function chachaKey(key: Uint8Array): Uint8Array {
  const a = createHash("md5").update(key).digest();
  const b = createHash("md5").update(a).digest();
  const out = new Uint8Array(32);
  out.set(a, 0);
  out.set(b, 16);
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE), as Go's crc32.ChecksumIEEE. */
export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** FNV-1a 32-bit. */
export function fnv1a32(b: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193) >>> 0;
  return h >>> 0;
}
