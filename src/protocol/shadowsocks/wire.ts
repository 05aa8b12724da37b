/**
 * Pure codecs of the shadowsocks wire format (no I/O): the SOCKS-style target address, nonce
 * counters, and the SIP022 request/response headers in plaintext form.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { formatIp, parseIp } from "../../common/ip.ts";

const ATYP_IPV4 = 1;
const ATYP_DOMAIN = 3;
const ATYP_IPV6 = 4;

/** Bytes `encodeAddressInto` writes for `addr`. */
export function addressLength(addr: Address): number {
  const ip = parseIp(addr.host);
  if (ip) return ip.version === 4 ? 7 : 19;
  if (addr.host.includes(":")) throw new ProtocolError(`Bad IPv6 address "${addr.host}"`);
  return 4 + new TextEncoder().encode(addr.host).length;
}

/** Writes ATYP, address and port at `out[off]`; returns the offset after it. */
export function encodeAddressInto(addr: Address, out: Uint8Array, off: number): number {
  const ip = parseIp(addr.host);
  if (ip) {
    out[off++] = ip.version === 4 ? ATYP_IPV4 : ATYP_IPV6;
    for (const w of ip.words) {
      out[off++] = w >>> 24;
      out[off++] = (w >>> 16) & 0xff;
      out[off++] = (w >>> 8) & 0xff;
      out[off++] = w & 0xff;
    }
  } else {
    const name = new TextEncoder().encode(addr.host);
    if (name.length === 0 || name.length > 255) {
      throw new ProtocolError(`Domain name too long: "${addr.host}"`);
    }
    out[off++] = ATYP_DOMAIN;
    out[off++] = name.length;
    out.set(name, off);
    off += name.length;
  }
  out[off++] = addr.port >> 8;
  out[off++] = addr.port & 0xff;
  return off;
}

export function encodeAddress(addr: Address): Uint8Array {
  const out = new Uint8Array(addressLength(addr));
  encodeAddressInto(addr, out, 0);
  return out;
}

/** Reads an address at `b[off]`; throws a ProtocolError when it is malformed or cut short. */
export function decodeAddress(b: Uint8Array, off = 0): { addr: Address; next: number } {
  const need = (n: number) => {
    if (b.length < off + n) throw new ProtocolError("Truncated target address");
  };
  need(1);
  const atyp = b[off++];
  let host: string;
  if (atyp === ATYP_IPV4 || atyp === ATYP_IPV6) {
    const n = atyp === ATYP_IPV4 ? 4 : 16;
    need(n + 2);
    const words = new Uint32Array(n / 4);
    for (let k = 0; k < words.length; k++) {
      const i = off + k * 4;
      words[k] = ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
    }
    host = formatIp({ version: atyp === ATYP_IPV4 ? 4 : 6, words });
    off += n;
  } else if (atyp === ATYP_DOMAIN) {
    need(1);
    const n = b[off++];
    need(n + 2);
    if (n === 0) throw new ProtocolError("Empty domain name in target address");
    host = new TextDecoder("utf-8", { fatal: false }).decode(b.subarray(off, off + n));
    off += n;
  } else {
    throw new ProtocolError(`Unknown address type ${atyp}`);
  }
  const port = (b[off] << 8) | b[off + 1];
  return { addr: { host, port }, next: off + 2 };
}

/** Adds one to a little-endian counter nonce in place (SIP004/SIP022 chunk nonces). */
export function incrementNonce(nonce: Uint8Array): void {
  for (let i = 0; i < nonce.length; i++) {
    nonce[i] = (nonce[i] + 1) & 0xff;
    if (nonce[i] !== 0) return;
  }
}

/** SIP022 header types. */
export const HEADER_CLIENT = 0;
export const HEADER_SERVER = 1;
/** A request or response more than this far from our clock is refused (SIP022). */
export const MAX_TIME_DIFF_S = 30;
export const MAX_PADDING = 900;

/** Writes a u64 big-endian seconds timestamp. */
export function putTimestamp(out: Uint8Array, off: number, seconds: number): void {
  new DataView(out.buffer, out.byteOffset).setBigUint64(off, BigInt(Math.floor(seconds)));
}

export function getTimestamp(b: Uint8Array, off: number): number {
  return Number(new DataView(b.buffer, b.byteOffset).getBigUint64(off));
}

/** Checks a SIP022 timestamp against `nowS`; throws when it is too far off. */
export function checkTimestamp(ts: number, nowS: number): void {
  if (Math.abs(ts - nowS) > MAX_TIME_DIFF_S) {
    throw new ProtocolError(
      `Bad timestamp: ${ts} is more than ${MAX_TIME_DIFF_S} s from now (${Math.floor(nowS)})`,
    );
  }
}
