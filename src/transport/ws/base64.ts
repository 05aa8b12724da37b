/**
 * Base64 for handshakes. Early data is decoded leniently, as Xray does: either alphabet, with or
 * without padding; anything else is a ProtocolError.
 */
import { ProtocolError } from "../../common/errors.ts";

export function encodeBase64(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
  return btoa(s);
}

export function encodeBase64Url(b: Uint8Array): string {
  return encodeBase64(b).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function decodeBase64Lenient(text: string): Uint8Array {
  const s = text.trim().replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(s) || s.length % 4 === 1) {
    throw new ProtocolError(`Early data is not base64: "${text.slice(0, 40)}"`);
  }
  const bin = atob(s + "=".repeat((4 - (s.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
