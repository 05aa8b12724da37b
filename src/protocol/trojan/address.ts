/**
 * The SOCKS5-style address trojan carries (ATYP, address, port; RFC 1928 §5). Trojan's own copy:
 * a protocol never imports another protocol, and this codec is a few lines.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { formatIp, parseIp } from "../../common/ip.ts";

const ATYP_IPV4 = 1;
const ATYP_DOMAIN = 3;
const ATYP_IPV6 = 4;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Parses ATYP ADDR PORT at `off`: the address and the offset after it, undefined when more
 * bytes are needed; throws ProtocolError on an unknown type or an empty name.
 */
export function decodeAddress(b: Uint8Array, off: number): { addr: Address; next: number } | undefined {
  if (b.length < off + 1) return undefined;
  const atyp = b[off];
  let p = off + 1;
  let host: string;
  if (atyp === ATYP_IPV4) {
    if (b.length < p + 6) return undefined;
    host = `${b[p]}.${b[p + 1]}.${b[p + 2]}.${b[p + 3]}`;
    p += 4;
  } else if (atyp === ATYP_IPV6) {
    if (b.length < p + 18) return undefined;
    const view = new DataView(b.buffer, b.byteOffset + p, 16);
    const words = new Uint32Array(4);
    for (let i = 0; i < 4; i++) words[i] = view.getUint32(i * 4);
    host = formatIp({ version: 6, words });
    p += 16;
  } else if (atyp === ATYP_DOMAIN) {
    if (b.length < p + 1) return undefined;
    const len = b[p];
    if (len === 0) throw new ProtocolError("Empty domain name in trojan address");
    if (b.length < p + 1 + len + 2) return undefined;
    host = decoder.decode(b.subarray(p + 1, p + 1 + len));
    p += 1 + len;
  } else {
    throw new ProtocolError(`Unknown trojan address type ${atyp}`);
  }
  return { addr: { host, port: (b[p] << 8) | b[p + 1] }, next: p + 2 };
}

/** Bytes `encodeAddress` writes for `addr`. */
export function addressLength(addr: Address): number {
  const ip = parseIp(addr.host);
  if (ip) return ip.version === 4 ? 7 : 19;
  return 4 + encoder.encode(addr.host).length;
}

/** Writes ATYP ADDR PORT into `out` at `off`; returns the offset after it. */
export function encodeAddress(addr: Address, out: Uint8Array, off: number): number {
  const ip = parseIp(addr.host);
  let p = off;
  if (ip) {
    out[p++] = ip.version === 4 ? ATYP_IPV4 : ATYP_IPV6;
    const view = new DataView(out.buffer, out.byteOffset);
    for (const w of ip.words) {
      view.setUint32(p, w);
      p += 4;
    }
  } else {
    if (addr.host.includes(":")) throw new ProtocolError(`Bad IPv6 address "${addr.host}"`);
    const name = encoder.encode(addr.host);
    if (name.length === 0 || name.length > 255) {
      throw new ProtocolError(`Domain name does not fit a trojan address: "${addr.host}"`);
    }
    out[p++] = ATYP_DOMAIN;
    out[p++] = name.length;
    out.set(name, p);
    p += name.length;
  }
  out[p++] = addr.port >> 8;
  out[p++] = addr.port & 0xff;
  return p;
}
