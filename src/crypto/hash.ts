/**
 * Digests the protocols need once per connection or handshake (vmess keys and auth, shadowsocks
 * password keys): node:crypto, which is native and fast enough off the per-chunk path. Each call
 * takes the message as parts, so callers need not concatenate first.
 */
import { createHash, createHmac } from "node:crypto";

type Bytes = Uint8Array | string;

function view(b: Uint8Array): Uint8Array {
  // node returns Buffers; hand out plain Uint8Arrays over the same memory.
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

function digest(alg: string, parts: Bytes[]): Uint8Array {
  const h = createHash(alg);
  for (const p of parts) h.update(p);
  return view(h.digest());
}

/** MD5 of the concatenated parts (strings as UTF-8): vmess legacy keys, EVP_BytesToKey. */
export function md5(...parts: Bytes[]): Uint8Array {
  return digest("md5", parts);
}

/** SHA-1 of the concatenated parts. */
export function sha1(...parts: Bytes[]): Uint8Array {
  return digest("sha1", parts);
}

/** SHA-256 of the concatenated parts. */
export function sha256(...parts: Bytes[]): Uint8Array {
  return digest("sha256", parts);
}

/** SHA-224 of the concatenated parts (trojan's password hash is its hex form). */
export function sha224(...parts: Bytes[]): Uint8Array {
  return digest("sha224", parts);
}

/** HMAC-SHA256 of the concatenated parts under `key`. */
export function hmacSha256(key: Bytes, ...parts: Bytes[]): Uint8Array {
  const h = createHmac("sha256", key);
  for (const p of parts) h.update(p);
  return view(h.digest());
}

/**
 * 32-bit FNV-1a (vmess' legacy header checksum). Hand-written: five lines, and a library call
 * would cost more than the loop. `Math.imul` keeps the multiply in 32 bits.
 */
export function fnv1a32(data: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 0x01000193);
  return h >>> 0;
}
