/**
 * QUIC Initial packet protection (RFC 9001 section 5, RFC 9369 section 3.3): keys derived with
 * HKDF-SHA256 from the client's Destination Connection ID, AES-128-ECB header protection and AES-128-GCM
 * payload protection. Uses node:crypto because it is synchronous.
 */
import { createCipheriv, createDecipheriv, createHmac } from "node:crypto";

export const QUIC_V1 = 0x00000001;
export const QUIC_V2 = 0x6b3343cf;
export const QUIC_DRAFT29 = 0xff00001d;

type VersionParams = { salt: Uint8Array; key: string; iv: string; hp: string };

const V1_LABELS = { key: "quic key", iv: "quic iv", hp: "quic hp" };
const VERSIONS: ReadonlyMap<number, VersionParams> = new Map([
  [QUIC_V1, { salt: hex("38762cf7f55934b34d179ae6a4c80cadccbb7f0a"), ...V1_LABELS }],
  [QUIC_V2, {
    salt: hex("0dede3def700a6db819381be6e269dcbf9bd2ed9"),
    key: "quicv2 key",
    iv: "quicv2 iv",
    hp: "quicv2 hp",
  }],
  [QUIC_DRAFT29, { salt: hex("afbfec289993d24c9e9786f19c6111e04390a899"), ...V1_LABELS }],
]);

export function isSupportedVersion(version: number): boolean {
  return VERSIONS.has(version);
}

export type InitialKeys = { key: Uint8Array; iv: Uint8Array; hp: Uint8Array };

/** The client's Initial keys for a connection ID (RFC 9001 section 5.2). */
export function clientInitialKeys(version: number, dcid: Uint8Array): InitialKeys | undefined {
  const params = VERSIONS.get(version);
  if (!params) return undefined;
  const initialSecret = hmac(params.salt, dcid);
  const secret = expandLabel(initialSecret, "client in", 32);
  return {
    key: expandLabel(secret, params.key, 16),
    iv: expandLabel(secret, params.iv, 12),
    hp: expandLabel(secret, params.hp, 16),
  };
}

/** The 5-byte header protection mask for a 16-byte sample (RFC 9001 section 5.4.3). */
export function headerMask(hp: Uint8Array, sample: Uint8Array): Uint8Array {
  const cipher = createCipheriv("aes-128-ecb", hp, null);
  cipher.setAutoPadding(false);
  return new Uint8Array(cipher.update(sample)).subarray(0, 5);
}

/** The nonce for a packet number: the IV with the number XORed into its low bytes. */
export function packetNonce(iv: Uint8Array, packetNumber: number): Uint8Array {
  const nonce = iv.slice();
  let pn = packetNumber;
  for (let i = nonce.length - 1; i >= nonce.length - 6 && pn > 0; i--) {
    nonce[i] ^= pn % 256;
    pn = Math.floor(pn / 256);
  }
  return nonce;
}

/** AES-128-GCM open; undefined when the tag does not verify. `sealed` ends with the 16-byte tag. */
export function openPayload(
  keys: InitialKeys,
  packetNumber: number,
  aad: Uint8Array,
  sealed: Uint8Array,
): Uint8Array | undefined {
  if (sealed.length < 16) return undefined;
  try {
    const decipher = createDecipheriv("aes-128-gcm", keys.key, packetNonce(keys.iv, packetNumber));
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const head = decipher.update(sealed.subarray(0, sealed.length - 16));
    const tail = decipher.final();
    if (tail.length === 0) return new Uint8Array(head.buffer, head.byteOffset, head.length);
    const out = new Uint8Array(head.length + tail.length);
    out.set(head);
    out.set(tail, head.length);
    return out;
  } catch {
    return undefined;
  }
}

/** AES-128-GCM seal (for building test packets): ciphertext followed by the tag. */
export function sealPayload(
  keys: InitialKeys,
  packetNumber: number,
  aad: Uint8Array,
  plain: Uint8Array,
): Uint8Array {
  const cipher = createCipheriv("aes-128-gcm", keys.key, packetNonce(keys.iv, packetNumber));
  cipher.setAAD(aad);
  const body = cipher.update(plain);
  const tail = cipher.final();
  const tag = cipher.getAuthTag();
  const out = new Uint8Array(body.length + tail.length + tag.length);
  out.set(body);
  out.set(tail, body.length);
  out.set(tag, body.length + tail.length);
  return out;
}

function hmac(key: Uint8Array, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", key).update(data).digest());
}

/** HKDF-Expand-Label (RFC 8446 section 7.1) with an empty context, for lengths up to 32. */
function expandLabel(secret: Uint8Array, label: string, length: number): Uint8Array {
  const full = "tls13 " + label;
  const info = new Uint8Array(2 + 1 + full.length + 1 + 1);
  info[0] = length >> 8;
  info[1] = length & 0xff;
  info[2] = full.length;
  for (let i = 0; i < full.length; i++) info[3 + i] = full.charCodeAt(i);
  info[3 + full.length] = 0; // empty context
  info[4 + full.length] = 1; // HKDF-Expand counter, T(1)
  return hmac(secret, info).subarray(0, length);
}

function hex(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}
