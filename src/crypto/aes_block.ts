/**
 * Single-block AES (ECB, no padding): vmess AEAD encrypts its 16-byte auth ID with it, and a
 * server tries it once per user on each new connection. The key is set once; OpenSSL then costs
 * one FFI call per block, node:crypto keeps one Cipheriv open (ECB is stateless between blocks).
 */
import { createCipheriv, createDecipheriv } from "node:crypto";
import type { Libcrypto } from "./libcrypto.ts";

export interface AesBlock {
  /** Encrypts the 16 bytes of `src` into `dst` (may be the same memory). */
  encrypt(src: Uint8Array, dst: Uint8Array): void;
  /** Decrypts the 16 bytes of `src` into `dst` (may be the same memory). */
  decrypt(src: Uint8Array, dst: Uint8Array): void;
  /** Frees native state. Safe to call twice. */
  dispose(): void;
}

export type AesBlockFactory = (key: Uint8Array) => AesBlock;

function checkKey(key: Uint8Array): 16 | 24 | 32 {
  const n = key.length;
  if (n !== 16 && n !== 24 && n !== 32) throw new RangeError(`AES needs a 16, 24 or 32-byte key, got ${n}`);
  return n;
}

function checkBlock(src: Uint8Array, dst: Uint8Array): void {
  if (src.length !== 16 || dst.length < 16) throw new RangeError("AES block must be 16 bytes");
}

/** The portable single-block AES. */
export function nodeAesBlock(key: Uint8Array): AesBlock {
  const alg = `aes-${checkKey(key) * 8}-ecb`;
  const enc = createCipheriv(alg, key, null).setAutoPadding(false);
  const dec = createDecipheriv(alg, key, null).setAutoPadding(false);
  return {
    encrypt(src, dst) {
      checkBlock(src, dst);
      dst.set(enc.update(src));
    },
    decrypt(src, dst) {
      checkBlock(src, dst);
      dst.set(dec.update(src));
    },
    dispose() {},
  };
}

type Ctx = NonNullable<Deno.PointerValue>;

/** Single-block AES over a loaded libcrypto; the factory owns the safety-net registry. */
export function opensslAesBlockFactory(lib: Libcrypto): AesBlockFactory {
  const s = lib.symbols;
  const ciphers = { 16: s.EVP_aes_128_ecb(), 24: s.EVP_aes_192_ecb(), 32: s.EVP_aes_256_ecb() };
  const registry = new FinalizationRegistry<(Ctx | null)[]>((ctxs) =>
    ctxs.forEach((c) => c !== null && s.EVP_CIPHER_CTX_free(c))
  );
  const newCtx = (key: Uint8Array, enc: 0 | 1): Ctx => {
    const ctx = s.EVP_CIPHER_CTX_new();
    if (ctx === null) throw new Error("EVP_CIPHER_CTX_new failed");
    if (
      s.EVP_CipherInit_ex(ctx, ciphers[checkKey(key)], null, key, null, enc) !== 1 ||
      s.EVP_CIPHER_CTX_set_padding(ctx, 0) !== 1
    ) {
      s.EVP_CIPHER_CTX_free(ctx);
      throw new Error("OpenSSL refused to set up AES-ECB");
    }
    return ctx;
  };
  // OpenSSL's out-length, shared by the factory's blocks (calls are synchronous): taking a native
  // address costs microseconds, so it is done once here rather than per AesBlock.
  const outl = new Uint8Array(new ArrayBuffer(4));
  const scratch = { outl, outlPtr: Deno.UnsafePointer.of(outl) }; // `outl` lives as long as the blocks
  return (key) => {
    checkKey(key);
    const ctxs: (Ctx | null)[] = [newCtx(key, 0), newCtx(key, 1)];
    const run = (dir: 0 | 1, src: Uint8Array, dst: Uint8Array) => {
      checkBlock(src, dst);
      const ctx = ctxs[dir];
      if (ctx === null) throw new TypeError("AES block used after dispose");
      if (s.EVP_CipherUpdate(ctx, dst, scratch.outlPtr, src, 16) !== 1) {
        throw new Error("EVP_CipherUpdate failed");
      }
    };
    const block: AesBlock = {
      encrypt: (src, dst) => run(1, src, dst),
      decrypt: (src, dst) => run(0, src, dst),
      dispose() {
        if (ctxs[0] === null || ctxs[1] === null) return;
        registry.unregister(block);
        s.EVP_CIPHER_CTX_free(ctxs[0]);
        s.EVP_CIPHER_CTX_free(ctxs[1]);
        ctxs[0] = ctxs[1] = null;
      },
    };
    registry.register(block, ctxs, block);
    return block;
  };
}
