/**
 * The portable AEAD provider: node:crypto (works wherever Deno runs). Slower than the OpenSSL
 * path (about 1.3 Gbit/s for AES-128-GCM here) and it allocates per call; mod.ts prefers OpenSSL.
 */
import { createCipheriv, createDecipheriv } from "node:crypto";
import { type Aead, AEAD_KEY_SIZE, AEAD_TAG_SIZE, type AeadName, type AeadProvider } from "./aead.ts";

const NODE_NAME: Record<AeadName, string> = {
  "aes-128-gcm": "aes-128-gcm",
  "aes-192-gcm": "aes-192-gcm",
  "aes-256-gcm": "aes-256-gcm",
  "chacha20-poly1305": "chacha20-poly1305",
};

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
    if (key.length !== AEAD_KEY_SIZE[name]) {
      throw new RangeError(`AEAD ${name} needs a ${AEAD_KEY_SIZE[name]}-byte key, got ${key.length}`);
    }
    return new NodeAead(name, key.slice());
  },
};
