/**
 * Authenticated encryption as the proxy protocols use it (shadowsocks, vmess): synchronous, into
 * caller-owned buffers, so the hot path allocates nothing per chunk. `createAead` picks the fastest
 * provider available (see mod.ts); every provider gives byte-identical results.
 */

export type AeadName = "aes-128-gcm" | "aes-192-gcm" | "aes-256-gcm" | "chacha20-poly1305";

export const AEAD_KEY_SIZE: Readonly<Record<AeadName, number>> = {
  "aes-128-gcm": 16,
  "aes-192-gcm": 24,
  "aes-256-gcm": 32,
  "chacha20-poly1305": 32,
};

export const AEAD_NONCE_SIZE = 12;
export const AEAD_TAG_SIZE = 16;

/** One key, many messages. Not safe to share between concurrent users only if they interleave calls: calls are synchronous. */
export interface Aead {
  readonly name: AeadName;
  /**
   * Encrypts `plaintext` and appends the 16-byte tag: writes `plaintext.length + 16` bytes at
   * `out[0..]` and returns that count. `out` may be the same memory as `plaintext` (in place).
   */
  seal(nonce: Uint8Array, plaintext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number;
  /**
   * Checks and decrypts `ciphertext` (which ends with the tag) into `out`; returns the plaintext
   * length, or -1 when authentication fails (then `out` holds unspecified bytes: never use them).
   * `out` may be the same memory as `ciphertext`.
   */
  open(nonce: Uint8Array, ciphertext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number;
  /** Frees native state; the Aead must not be used afterwards. Safe to call twice. */
  dispose(): void;
}

/** A source of Aead instances: OpenSSL through FFI, or node:crypto. */
export interface AeadProvider {
  readonly id: string;
  create(name: AeadName, key: Uint8Array): Aead;
}
