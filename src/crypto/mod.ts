/** The crypto layer's public surface. */
export type { Aead, AeadName, AeadProvider } from "./aead.ts";
export { AEAD_KEY_SIZE, AEAD_NONCE_SIZE, AEAD_TAG_SIZE } from "./aead.ts";
import type { Aead, AeadName } from "./aead.ts";
import { nodeAeadProvider } from "./node_aead.ts";

/** Creates an AEAD with the fastest provider available (the OpenSSL fast path lands here). */
export function createAead(name: AeadName, key: Uint8Array): Aead {
  return nodeAeadProvider.create(name, key);
}
