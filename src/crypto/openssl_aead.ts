/**
 * The fast AEAD provider: OpenSSL's EVP API through FFI (about 20× node:crypto for AES-GCM here).
 * One EVP_CIPHER_CTX per key and direction, keyed once; a message then only sets its IV, so a
 * seal or open is 4 FFI calls (5 with AAD) over the caller's buffers, with no copy of the payload
 * and no allocation: the tag goes through a 16-byte scratch (see Scratch).
 * A direction's context is made on its first use: one-shot users (a UDP packet, trying each
 * user's key on a new connection) seal or open only, and setup is most of their cost.
 */
import {
  type Aead,
  AEAD_KEY_SIZE,
  AEAD_NONCE_SIZE,
  AEAD_TAG_SIZE,
  type AeadName,
  type AeadProvider,
} from "./aead.ts";
import {
  EVP_CTRL_AEAD_GET_TAG,
  EVP_CTRL_AEAD_SET_TAG,
  type Libcrypto,
  type LibcryptoSymbols,
} from "./libcrypto.ts";

type Ctx = NonNullable<Deno.PointerValue>;

/** Scratch layout: tag, then IV, then OpenSSL's int out-length. */
const TAG_AT = 0, IV_AT = 16, OUTL_AT = 28, SCRATCH_SIZE = 32;

/**
 * Tag, IV and out-length go through one small buffer whose native addresses are taken once: a
 * pointer argument costs about 50 ns less per call than a "buffer" one (see libcrypto.ts), and
 * `new ArrayBuffer` memory never moves. It is shared by every Aead of a provider, since seal and
 * open are synchronous (nothing else runs in between); per instance, taking the addresses was
 * ~3 µs, most of the cost of a one-shot Aead.
 */
interface Scratch {
  readonly bytes: Uint8Array;
  readonly tagPtr: Deno.PointerValue;
  readonly ivPtr: Deno.PointerValue;
  readonly outlPtr: Deno.PointerValue;
}

function newScratch(): Scratch {
  const bytes = new Uint8Array(new ArrayBuffer(SCRATCH_SIZE));
  const base = Deno.UnsafePointer.of(bytes)!;
  return {
    bytes,
    tagPtr: Deno.UnsafePointer.offset(base, TAG_AT),
    ivPtr: Deno.UnsafePointer.offset(base, IV_AT),
    outlPtr: Deno.UnsafePointer.offset(base, OUTL_AT),
  };
}

/** Directions, as EVP_CipherInit_ex's `enc` and as indexes into an instance's contexts. */
type Dir = 0 | 1;
const DECRYPT: Dir = 0, ENCRYPT: Dir = 1;

class OpenSslAead implements Aead {
  /** [decrypt, encrypt] contexts, null until first used; also the registry's held value. */
  readonly #ctxs: (Ctx | null)[] = [null, null];
  /** A copy of the key until both contexts exist (then zeroed and dropped). */
  #key: Uint8Array | null;
  #disposed = false;
  constructor(
    readonly name: AeadName,
    private readonly s: LibcryptoSymbols,
    private readonly cipher: Deno.PointerValue,
    key: Uint8Array,
    private readonly sc: Scratch,
    private readonly registry: FinalizationRegistry<(Ctx | null)[]>,
  ) {
    this.#key = key.slice();
    registry.register(this, this.#ctxs, this);
  }

  /** The context of one direction, keyed on first use (GCM and ChaCha20-Poly1305 default to 12-byte IVs). */
  #ctx(dir: Dir): Ctx {
    const have = this.#ctxs[dir];
    if (have !== null) return have;
    if (this.#disposed) throw new TypeError("AEAD used after dispose");
    const s = this.s;
    const ctx = s.EVP_CIPHER_CTX_new();
    if (ctx === null) throw new Error("EVP_CIPHER_CTX_new failed");
    if (s.EVP_CipherInit_ex(ctx, this.cipher, null, this.#key, null, dir) !== 1) {
      s.EVP_CIPHER_CTX_free(ctx);
      throw new Error(`OpenSSL refused to set up "${this.name}"`);
    }
    this.#ctxs[dir] = ctx;
    if (this.#ctxs[1 - dir] !== null) {
      this.#key!.fill(0);
      this.#key = null;
    }
    return ctx;
  }

  /** Copies the nonce into the scratch (12 byte moves beat a "buffer" argument) and sets it. */
  #setIv(ctx: Ctx, nonce: Uint8Array, enc: Dir): void {
    if (nonce.length !== AEAD_NONCE_SIZE) {
      throw new RangeError(`AEAD nonce must be 12 bytes, got ${nonce.length}`);
    }
    const sc = this.sc.bytes;
    for (let i = 0; i < AEAD_NONCE_SIZE; i++) sc[IV_AT + i] = nonce[i];
    if (this.s.EVP_CipherInit_ex(ctx, null, null, null, this.sc.ivPtr, enc) !== 1) {
      throw new Error("EVP_CipherInit_ex failed");
    }
  }

  seal(nonce: Uint8Array, plaintext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number {
    const ctx = this.#ctx(ENCRYPT);
    const n = plaintext.length;
    if (out.length < n + AEAD_TAG_SIZE) throw new RangeError(`AEAD output needs ${n + AEAD_TAG_SIZE} bytes`);
    const s = this.s, outl = this.sc.outlPtr;
    this.#setIv(ctx, nonce, ENCRYPT);
    if (aad !== undefined && aad.length > 0) s.EVP_CipherUpdate(ctx, null, outl, aad, aad.length);
    if (n > 0 && s.EVP_CipherUpdate(ctx, out, outl, plaintext, n) !== 1) {
      throw new Error("EVP_CipherUpdate failed");
    }
    // GCM and ChaCha20-Poly1305 are stream modes: Final writes no bytes, only computes the tag.
    s.EVP_CipherFinal_ex(ctx, this.sc.tagPtr, outl);
    s.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, AEAD_TAG_SIZE, this.sc.tagPtr);
    const sc = this.sc.bytes;
    for (let i = 0; i < AEAD_TAG_SIZE; i++) out[n + i] = sc[TAG_AT + i];
    return n + AEAD_TAG_SIZE;
  }

  open(nonce: Uint8Array, ciphertext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number {
    const ctx = this.#ctx(DECRYPT);
    const n = ciphertext.length - AEAD_TAG_SIZE;
    if (n < 0) return -1;
    if (out.length < n) throw new RangeError(`AEAD output needs ${n} bytes`);
    const s = this.s, outl = this.sc.outlPtr, sc = this.sc.bytes;
    // Byte copies, not subarray(): a view would be an allocation per call.
    for (let i = 0; i < AEAD_TAG_SIZE; i++) sc[TAG_AT + i] = ciphertext[n + i];
    this.#setIv(ctx, nonce, DECRYPT);
    s.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, AEAD_TAG_SIZE, this.sc.tagPtr);
    if (aad !== undefined && aad.length > 0) s.EVP_CipherUpdate(ctx, null, outl, aad, aad.length);
    // `ciphertext` is passed whole with length n: OpenSSL reads only its first n bytes.
    if (n > 0) s.EVP_CipherUpdate(ctx, out, outl, ciphertext, n);
    return s.EVP_CipherFinal_ex(ctx, this.sc.tagPtr, outl) === 1 ? n : -1;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.registry.unregister(this);
    for (let d = 0; d < 2; d++) {
      const c = this.#ctxs[d];
      if (c !== null) this.s.EVP_CIPHER_CTX_free(c);
      this.#ctxs[d] = null;
    }
    this.#key?.fill(0);
    this.#key = null;
  }
}

/** A provider over a loaded libcrypto. Each provider owns the safety-net registry of its contexts. */
export function opensslAeadProvider(lib: Libcrypto): AeadProvider {
  const s = lib.symbols;
  const ciphers: Record<AeadName, Deno.PointerValue> = {
    "aes-128-gcm": s.EVP_aes_128_gcm(),
    "aes-192-gcm": s.EVP_aes_192_gcm(),
    "aes-256-gcm": s.EVP_aes_256_gcm(),
    "chacha20-poly1305": s.EVP_chacha20_poly1305(),
  };
  const scratch = newScratch();
  // Frees the contexts of an Aead that was dropped without dispose().
  const registry = new FinalizationRegistry<(Ctx | null)[]>((ctxs) =>
    ctxs.forEach((c) => c !== null && s.EVP_CIPHER_CTX_free(c))
  );

  return {
    id: `openssl (${lib.path})`,
    create(name, key) {
      const size = AEAD_KEY_SIZE[name];
      if (size === undefined) throw new RangeError(`Unknown AEAD "${name}"`);
      if (key.length !== size) {
        throw new RangeError(`AEAD ${name} needs a ${size}-byte key, got ${key.length}`);
      }
      if (ciphers[name] === null) throw new Error(`OpenSSL has no "${name}"`);
      return new OpenSslAead(name, s, ciphers[name], key, scratch, registry);
    },
  };
}
