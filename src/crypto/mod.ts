/** The crypto layer's public surface. */
export type { Aead, AeadName, AeadProvider } from "./aead.ts";
export { AEAD_KEY_SIZE, AEAD_NONCE_SIZE, AEAD_TAG_SIZE } from "./aead.ts";
export { createAesBlock, getAeadProvider, getNodeAeadProvider, getOpensslAeadProvider } from "./provider.ts";
export type { AesBlock } from "./aes_block.ts";
export { fnv1a32, hmacSha256, md5, sha1, sha224, sha256 } from "./hash.ts";
export { blake3DeriveKey, evpBytesToKey, hkdfSha1 } from "./kdf.ts";
export { Shake128Stream } from "./shake.ts";
import type { Aead, AeadName } from "./aead.ts";
import { getAeadProvider } from "./provider.ts";

/**
 * Creates an AEAD with the fastest provider available: OpenSSL through FFI (needs --allow-ffi and
 * libcrypto 3), else node:crypto. Throws RangeError when the key has the wrong size.
 */
export function createAead(name: AeadName, key: Uint8Array): Aead {
  return getAeadProvider().create(name, key);
}
