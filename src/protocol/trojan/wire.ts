/**
 * Trojan wire format (trojan-gfw's protocol document), pure codecs on Uint8Array, no I/O.
 *
 *   request:  hex(SHA224(password)) CRLF CMD ATYP ADDR PORT CRLF payload…
 *   UDP frame (after a CMD 3 request, both directions): ATYP ADDR PORT LENGTH(u16) CRLF payload
 *
 * Decoders return `undefined` when more bytes are needed and throw ProtocolError when the bytes
 * cannot be trojan; the inbound then hands the connection to its fallback.
 */
import { createHash } from "node:crypto";
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { addressLength, decodeAddress, encodeAddress } from "./address.ts";

export const CMD_CONNECT = 1;
export const CMD_UDP_ASSOCIATE = 3;
/** Length of hex(SHA224(password)). */
export const KEY_LENGTH = 56;
/**
 * Largest UDP payload accepted in a frame: the largest IPv4 UDP datagram. The u16 length field
 * already bounds memory; a longer frame cannot be a real datagram and closes the stream.
 */
export const MAX_UDP_PAYLOAD = 65_507;

const CR = 13;
const LF = 10;

/** hex(SHA224(password)) as trojan sends it: 56 lowercase ASCII hex digits. */
export function passwordKey(password: string): string {
  return createHash("sha224").update(password).digest("hex");
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * The key a client sent (lowercased), once KEY_LENGTH + 2 bytes are there. Throws as soon as a
 * byte shows this is not trojan (so an HTTP request falls back without waiting for more bytes).
 */
export function decodeKey(b: Uint8Array): string | undefined {
  const n = Math.min(b.length, KEY_LENGTH);
  for (let i = 0; i < n; i++) {
    if (!isHex(b[i])) throw new ProtocolError("Not a trojan request: the key is not hexadecimal");
  }
  if (b.length > KEY_LENGTH && b[KEY_LENGTH] !== CR) {
    throw new ProtocolError("Not a trojan request: no CRLF after the key");
  }
  if (b.length > KEY_LENGTH + 1 && b[KEY_LENGTH + 1] !== LF) {
    throw new ProtocolError("Not a trojan request: no CRLF after the key");
  }
  if (b.length < KEY_LENGTH + 2) return undefined;
  let key = "";
  for (let i = 0; i < KEY_LENGTH; i++) key += String.fromCharCode(b[i] | 0x20);
  return key;
}

export interface TrojanCommand {
  cmd: number;
  addr: Address;
  /** Bytes of the whole request, key included. */
  length: number;
}

/** CMD ATYP ADDR PORT CRLF after the key line. */
export function decodeCommand(b: Uint8Array): TrojanCommand | undefined {
  const off = KEY_LENGTH + 2;
  if (b.length < off + 1) return undefined;
  const cmd = b[off];
  if (cmd !== CMD_CONNECT && cmd !== CMD_UDP_ASSOCIATE) {
    throw new ProtocolError(`Unknown trojan command ${cmd}`);
  }
  const a = decodeAddress(b, off + 1);
  if (!a) return undefined;
  if (b.length < a.next + 2) return undefined;
  if (b[a.next] !== CR || b[a.next + 1] !== LF) {
    throw new ProtocolError("Trojan request lacks its final CRLF");
  }
  return { cmd, addr: a.addr, length: a.next + 2 };
}

/** The whole request header for `key` (from passwordKey). */
export function encodeRequest(key: string, cmd: number, addr: Address): Uint8Array {
  const out = new Uint8Array(KEY_LENGTH + 2 + 1 + addressLength(addr) + 2);
  for (let i = 0; i < KEY_LENGTH; i++) out[i] = key.charCodeAt(i);
  out[KEY_LENGTH] = CR;
  out[KEY_LENGTH + 1] = LF;
  out[KEY_LENGTH + 2] = cmd;
  const p = encodeAddress(addr, out, KEY_LENGTH + 3);
  out[p] = CR;
  out[p + 1] = LF;
  return out;
}

/** One UDP frame; throws when the payload is larger than a datagram can be. */
export function encodeUdpFrame(addr: Address, payload: Uint8Array): Uint8Array {
  if (payload.length > MAX_UDP_PAYLOAD) {
    throw new ProtocolError(`UDP payload of ${payload.length} bytes is larger than ${MAX_UDP_PAYLOAD}`);
  }
  const out = new Uint8Array(addressLength(addr) + 4 + payload.length);
  let p = encodeAddress(addr, out, 0);
  out[p++] = payload.length >> 8;
  out[p++] = payload.length & 0xff;
  out[p++] = CR;
  out[p++] = LF;
  out.set(payload, p);
  return out;
}

export interface UdpFrame {
  addr: Address;
  /** A view into the input. */
  payload: Uint8Array;
  /** Offset after the frame. */
  next: number;
}

/** A UDP frame at `off`, undefined until it is complete. */
export function decodeUdpFrame(b: Uint8Array, off = 0): UdpFrame | undefined {
  const a = decodeAddress(b, off);
  if (!a) return undefined;
  let p = a.next;
  if (b.length < p + 4) return undefined;
  const length = (b[p] << 8) | b[p + 1];
  if (length > MAX_UDP_PAYLOAD) throw new ProtocolError(`Trojan UDP frame of ${length} bytes is too long`);
  if (b[p + 2] !== CR || b[p + 3] !== LF) throw new ProtocolError("Trojan UDP frame lacks its CRLF");
  p += 4;
  if (b.length < p + length) return undefined;
  return { addr: a.addr, payload: b.subarray(p, p + length), next: p + length };
}
