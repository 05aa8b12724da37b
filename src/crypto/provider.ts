/**
 * Picks the provider of AEADs and AES blocks: OpenSSL through FFI when it loads, node:crypto
 * otherwise. Each is set up once per process (memoized capability probes, the only module state).
 */
import type { AeadProvider } from "./aead.ts";
import { type AesBlock, type AesBlockFactory, nodeAesBlock, opensslAesBlockFactory } from "./aes_block.ts";
import { loadLibcrypto } from "./libcrypto.ts";
import { nodeAeadProvider } from "./node_aead.ts";
import { opensslAeadProvider } from "./openssl_aead.ts";

let openssl: { provider: AeadProvider | null } | undefined;

/** The OpenSSL provider, or null without --allow-ffi or without libcrypto 3. */
export function getOpensslAeadProvider(): AeadProvider | null {
  if (!openssl) {
    const lib = loadLibcrypto();
    openssl = { provider: lib ? opensslAeadProvider(lib) : null };
  }
  return openssl.provider;
}

/** The portable provider (node:crypto): always available. */
export function getNodeAeadProvider(): AeadProvider {
  return nodeAeadProvider;
}

/** The fastest provider available here. */
export function getAeadProvider(): AeadProvider {
  return getOpensslAeadProvider() ?? nodeAeadProvider;
}

let aesBlock: { factory: AesBlockFactory } | undefined;

/** Single-block AES with the fastest provider available (OpenSSL, else node:crypto). */
export function createAesBlock(key: Uint8Array): AesBlock {
  if (!aesBlock) {
    const lib = loadLibcrypto();
    aesBlock = { factory: lib ? opensslAesBlockFactory(lib) : nodeAesBlock };
  }
  return aesBlock.factory(key);
}
