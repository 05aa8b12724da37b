/**
 * The shadowsocks methods: their AEAD, key and salt sizes, and how a configured password becomes
 * keys (EVP_BytesToKey for SIP004, base64 PSKs of exact length for SIP022).
 */
import type { AeadName } from "../../crypto/mod.ts";
import { evpBytesToKey } from "./kdf.ts";

export type MethodKind = "none" | "aead" | "2022";

export interface Method {
  readonly name: string;
  readonly kind: MethodKind;
  readonly aead: AeadName;
  readonly keySize: number;
  readonly saltSize: number;
  /** Largest payload in one chunk: 0x3FFF for SIP004, 0xFFFF for SIP022. */
  readonly maxPayload: number;
}

const table: Record<string, Omit<Method, "name">> = {
  "none": { kind: "none", aead: "aes-128-gcm", keySize: 0, saltSize: 0, maxPayload: 0 },
  "aes-128-gcm": { kind: "aead", aead: "aes-128-gcm", keySize: 16, saltSize: 16, maxPayload: 0x3fff },
  "aes-256-gcm": { kind: "aead", aead: "aes-256-gcm", keySize: 32, saltSize: 32, maxPayload: 0x3fff },
  "chacha20-ietf-poly1305": {
    kind: "aead",
    aead: "chacha20-poly1305",
    keySize: 32,
    saltSize: 32,
    maxPayload: 0x3fff,
  },
  "2022-blake3-aes-128-gcm": {
    kind: "2022",
    aead: "aes-128-gcm",
    keySize: 16,
    saltSize: 16,
    maxPayload: 0xffff,
  },
  "2022-blake3-aes-256-gcm": {
    kind: "2022",
    aead: "aes-256-gcm",
    keySize: 32,
    saltSize: 32,
    maxPayload: 0xffff,
  },
  "2022-blake3-chacha20-poly1305": {
    kind: "2022",
    aead: "chacha20-poly1305",
    keySize: 32,
    saltSize: 32,
    maxPayload: 0xffff,
  },
};

export function methodOf(name: string): Method {
  const m = table[name];
  if (!m) throw new Error(`Unsupported shadowsocks method "${name}"`);
  return { name, ...m };
}

/** Decodes one SIP022 PSK; throws with a message naming what is wrong. */
export function decodePsk(method: Method, text: string): Uint8Array {
  let key: Uint8Array;
  try {
    key = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    throw new Error(`password is not valid base64 (method "${method.name}" needs a base64 key)`);
  }
  if (key.length !== method.keySize) {
    throw new Error(
      `password must be a base64 key of ${method.keySize} bytes for method "${method.name}", got ${key.length}`,
    );
  }
  return key;
}

/**
 * Keys for a password: SIP004 gives one key; SIP022 may give a chain "iPSK:...:uPSK" (outbound,
 * identity headers for relays and multi-user servers), the last one being the user's own.
 */
export function passwordKeys(method: Method, password: string): Uint8Array[] {
  if (method.kind === "none") return [];
  if (method.kind === "aead") {
    if (password === "") throw new Error(`password must not be empty for method "${method.name}"`);
    return [evpBytesToKey(password, method.keySize)];
  }
  const keys = password.split(":").map((p) => decodePsk(method, p));
  if (keys.length > 1 && method.aead === "chacha20-poly1305") {
    throw new Error(`method "${method.name}" has no identity headers: use one key, not "iPSK:uPSK"`);
  }
  return keys;
}
