/**
 * The portable AEAD provider: node:crypto (works wherever Deno runs). Much slower than the
 * OpenSSL path (scripts/bench/crypto.ts: about 1/20 for AES-GCM) and it allocates per call;
 * provider.ts prefers OpenSSL. Deno's node:crypto has no aes-192-gcm, so that one cipher comes
 * from @noble/ciphers (pure JS, slower still, only used without FFI).
 */
import { createCipheriv, createDecipheriv } from "node:crypto";
import { gcm } from "@noble/ciphers/aes.js";
import { type Aead, AEAD_KEY_SIZE, AEAD_TAG_SIZE, type AeadName, type AeadProvider } from "./aead.ts";

const NODE_NAME: Record<AeadName, string> = {
  "aes-128-gcm": "aes-128-gcm",
  "aes-192-gcm": "aes-192-gcm",
  "aes-256-gcm": "aes-256-gcm",
  "chacha20-poly1305": "chacha20-poly1305",
};

const EMPTY = new Uint8Array(0);

/** AES-192-GCM through @noble/ciphers: same contract, byte-identical output. */
class NobleGcmAead implements Aead {
  readonly name = "aes-192-gcm";
  constructor(private readonly key: Uint8Array) {}

  seal(nonce: Uint8Array, plaintext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number {
    const sealed = gcm(this.key, nonce, aad ?? EMPTY).encrypt(plaintext);
    out.set(sealed, 0);
    return sealed.length;
  }

  open(nonce: Uint8Array, ciphertext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number {
    if (ciphertext.length < AEAD_TAG_SIZE) return -1;
    let plain: Uint8Array;
    try {
      plain = gcm(this.key, nonce, aad ?? EMPTY).decrypt(ciphertext);
    } catch {
      return -1;
    }
    out.set(plain, 0);
    return plain.length;
  }

  dispose(): void {}
}

class NodeAead implements Aead {
  constructor(readonly name: AeadName, private readonly key: Uint8Array) {}

  seal(nonce: Uint8Array, plaintext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number {
    const c = createCipheriv(
      NODE_NAME[this.name] as "aes-128-gcm",
      this.key,
      nonce,
      { authTagLength: AEAD_TAG_SIZE },
    );
    if (aad) c.setAAD(aad, { plaintextLength: plaintext.length });
    const body = c.update(plaintext);
    const fin = c.final();
    out.set(body, 0);
    out.set(fin, body.length);
    const n = body.length + fin.length;
    out.set(c.getAuthTag(), n);
    return n + AEAD_TAG_SIZE;
  }

  open(nonce: Uint8Array, ciphertext: Uint8Array, out: Uint8Array, aad?: Uint8Array): number {
    if (ciphertext.length < AEAD_TAG_SIZE) return -1;
    const n = ciphertext.length - AEAD_TAG_SIZE;
    const d = createDecipheriv(
      NODE_NAME[this.name] as "aes-128-gcm",
      this.key,
      nonce,
      { authTagLength: AEAD_TAG_SIZE },
    );
    if (aad) d.setAAD(aad, { plaintextLength: n });
    d.setAuthTag(ciphertext.subarray(n));
    try {
      const body = d.update(ciphertext.subarray(0, n));
      const fin = d.final();
      out.set(body, 0);
      out.set(fin, body.length);
      return body.length + fin.length;
    } catch {
      return -1;
    }
  }

  dispose(): void {}
}

export const nodeAeadProvider: AeadProvider = {
  id: "node:crypto",
  create(name, key) {
    if (AEAD_KEY_SIZE[name] === undefined) throw new RangeError(`Unknown AEAD "${name}"`);
    if (key.length !== AEAD_KEY_SIZE[name]) {
      throw new RangeError(`AEAD ${name} needs a ${AEAD_KEY_SIZE[name]}-byte key, got ${key.length}`);
    }
    return name === "aes-192-gcm" ? new NobleGcmAead(key.slice()) : new NodeAead(name, key.slice());
  },
};
