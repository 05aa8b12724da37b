/** The WebSocket opening handshake values (RFC 6455 section 4) and the early-data encoding. */
import { encodeBase64, encodeBase64Url } from "./base64.ts";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

export function newKey(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(16)));
}

export async function acceptFor(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(key + GUID));
  return encodeBase64(new Uint8Array(digest));
}

/** Early data as sing-box and Xray send it: base64url without padding. */
export function encodeEarlyData(b: Uint8Array): string {
  return encodeBase64Url(b);
}
