/**
 * SOCKS4/4a (no RFC; the de-facto NEC spec) and SOCKS5 (RFC 1928, RFC 1929) wire codecs over
 * Uint8Array, no I/O. Parsers return `undefined` when more bytes are needed and throw
 * ProtocolError on malformed input.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { formatIp, parseIp } from "../../common/ip.ts";

export const SOCKS4 = 4;
export const SOCKS5 = 5;
export const CMD_CONNECT = 1;
export const CMD_BIND = 2;
export const CMD_UDP_ASSOCIATE = 3;
export const AUTH_NONE = 0;
export const AUTH_PASSWORD = 2;
export const AUTH_NO_ACCEPTABLE = 0xff;

/** SOCKS5 reply codes. */
export const REP = {
  succeeded: 0,
  generalFailure: 1,
  notAllowed: 2,
  networkUnreachable: 3,
  hostUnreachable: 4,
  connectionRefused: 5,
  ttlExpired: 6,
  commandNotSupported: 7,
  addressTypeNotSupported: 8,
} as const;

const ATYP_IPV4 = 1;
const ATYP_DOMAIN = 3;
const ATYP_IPV6 = 4;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Parses ATYP+ADDR+PORT at `off`. */
export function decodeAddress(b: Uint8Array, off: number): { addr: Address; next: number } | undefined {
  if (b.length < off + 1) return undefined;
  const atyp = b[off];
  let host: string;
  let p = off + 1;
  if (atyp === ATYP_IPV4) {
    if (b.length < p + 6) return undefined;
    host = `${b[p]}.${b[p + 1]}.${b[p + 2]}.${b[p + 3]}`;
    p += 4;
  } else if (atyp === ATYP_IPV6) {
    if (b.length < p + 18) return undefined;
    host = formatIp({ version: 6, words: wordsOf(b.subarray(p, p + 16)) });
    p += 16;
  } else if (atyp === ATYP_DOMAIN) {
    if (b.length < p + 1) return undefined;
    const len = b[p];
    if (len === 0) throw new ProtocolError("Empty domain name in SOCKS5 address");
    if (b.length < p + 1 + len + 2) return undefined;
    host = decoder.decode(b.subarray(p + 1, p + 1 + len));
    p += 1 + len;
  } else {
    throw new ProtocolError(`Unknown SOCKS5 address type ${atyp}`);
  }
  const port = (b[p] << 8) | b[p + 1];
  return { addr: { host, port }, next: p + 2 };
}

export function encodeAddress(addr: Address): Uint8Array {
  const ip = parseIp(addr.host);
  let out: Uint8Array;
  if (ip?.version === 4) {
    out = new Uint8Array(7);
    out[0] = ATYP_IPV4;
    out.set(bytesOf(ip.words), 1);
  } else if (ip) {
    out = new Uint8Array(19);
    out[0] = ATYP_IPV6;
    out.set(bytesOf(ip.words), 1);
  } else if (addr.host.includes(":")) {
    throw new ProtocolError(`Bad IPv6 address "${addr.host}"`);
  } else {
    const name = encoder.encode(addr.host);
    if (name.length > 255) throw new ProtocolError(`Domain name too long for SOCKS5: "${addr.host}"`);
    out = new Uint8Array(4 + name.length);
    out[0] = ATYP_DOMAIN;
    out[1] = name.length;
    out.set(name, 2);
  }
  out[out.length - 2] = addr.port >> 8;
  out[out.length - 1] = addr.port & 0xff;
  return out;
}

/** SOCKS5 request or reply: VER CMD/REP RSV ADDR. */
export function decodeRequest(b: Uint8Array): { cmd: number; addr: Address; length: number } | undefined {
  if (b.length < 4) return undefined;
  if (b[0] !== SOCKS5) throw new ProtocolError(`Unexpected SOCKS version ${b[0]}`);
  const a = decodeAddress(b, 3);
  if (!a) return undefined;
  return { cmd: b[1], addr: a.addr, length: a.next };
}

export function encodeRequest(cmd: number, addr: Address): Uint8Array {
  const a = encodeAddress(addr);
  const out = new Uint8Array(3 + a.length);
  out.set([SOCKS5, cmd, 0]);
  out.set(a, 3);
  return out;
}

export function encodeReply(rep: number, bound: Address = { host: "0.0.0.0", port: 0 }): Uint8Array {
  return encodeRequest(rep, bound);
}

/** Greeting: VER NMETHODS METHODS. */
export function decodeGreeting(b: Uint8Array): { methods: Uint8Array; length: number } | undefined {
  if (b.length < 2) return undefined;
  const n = b[1];
  if (b.length < 2 + n) return undefined;
  return { methods: b.slice(2, 2 + n), length: 2 + n };
}

/** RFC 1929 username/password request. */
export function decodePasswordAuth(
  b: Uint8Array,
): { username: string; password: string; length: number } | undefined {
  if (b.length < 2) return undefined;
  if (b[0] !== 1) throw new ProtocolError(`Unexpected auth version ${b[0]}`);
  const ul = b[1];
  if (b.length < 3 + ul) return undefined;
  const pl = b[2 + ul];
  if (b.length < 3 + ul + pl) return undefined;
  return {
    username: decoder.decode(b.subarray(2, 2 + ul)),
    password: decoder.decode(b.subarray(3 + ul, 3 + ul + pl)),
    length: 3 + ul + pl,
  };
}

export function encodePasswordAuth(username: string, password: string): Uint8Array {
  const u = encoder.encode(username);
  const p = encoder.encode(password);
  if (u.length > 255 || p.length > 255) {
    throw new ProtocolError("SOCKS5 username or password longer than 255 bytes");
  }
  const out = new Uint8Array(3 + u.length + p.length);
  out[0] = 1;
  out[1] = u.length;
  out.set(u, 2);
  out[2 + u.length] = p.length;
  out.set(p, 3 + u.length);
  return out;
}

/** SOCKS4/4a request: VN CD DSTPORT DSTIP USERID NUL [DOMAIN NUL]. */
export function decodeSocks4Request(
  b: Uint8Array,
): { cmd: number; addr: Address; userId: string; length: number } | undefined {
  if (b.length < 9) return undefined;
  const cmd = b[1];
  const port = (b[2] << 8) | b[3];
  const userEnd = b.indexOf(0, 8);
  if (userEnd < 0) {
    if (b.length > 8 + 255) throw new ProtocolError("SOCKS4 user id too long");
    return undefined;
  }
  const userId = decoder.decode(b.subarray(8, userEnd));
  // 0.0.0.x with x != 0 marks SOCKS4a: a domain name follows the user id.
  if (b[4] === 0 && b[5] === 0 && b[6] === 0 && b[7] !== 0) {
    const nameEnd = b.indexOf(0, userEnd + 1);
    if (nameEnd < 0) {
      if (b.length > userEnd + 1 + 255) throw new ProtocolError("SOCKS4a domain name too long");
      return undefined;
    }
    const host = decoder.decode(b.subarray(userEnd + 1, nameEnd));
    if (!host) throw new ProtocolError("Empty SOCKS4a domain name");
    return { cmd, addr: { host, port }, userId, length: nameEnd + 1 };
  }
  return { cmd, addr: { host: `${b[4]}.${b[5]}.${b[6]}.${b[7]}`, port }, userId, length: userEnd + 1 };
}

export function encodeSocks4Request(cmd: number, addr: Address, userId: string, v4a: boolean): Uint8Array {
  const parsed = parseIp(addr.host);
  const ip = parsed?.version === 4 ? bytesOf(parsed.words) : undefined;
  const user = encoder.encode(userId);
  const name = !ip && v4a ? encoder.encode(addr.host) : undefined;
  if (!ip && !v4a) throw new ProtocolError(`SOCKS4 needs an IPv4 address, got "${addr.host}"`);
  const out = new Uint8Array(9 + user.length + (name ? name.length + 1 : 0));
  out[0] = SOCKS4;
  out[1] = cmd;
  out[2] = addr.port >> 8;
  out[3] = addr.port & 0xff;
  out.set(ip ?? [0, 0, 0, 1], 4);
  out.set(user, 8);
  if (name) out.set(name, 9 + user.length);
  return out;
}

/** SOCKS4 reply: 0x00, 0x5A granted or 0x5B rejected, then port and IP. */
export function encodeSocks4Reply(granted: boolean): Uint8Array {
  return new Uint8Array([0, granted ? 0x5a : 0x5b, 0, 0, 0, 0, 0, 0]);
}

/** UDP ASSOCIATE datagram: RSV(2) FRAG ADDR DATA. Fragmented datagrams are refused (as most servers do). */
export function decodeUdpDatagram(b: Uint8Array): { addr: Address; payload: Uint8Array } {
  if (b.length < 4) throw new ProtocolError("Short SOCKS5 UDP datagram");
  if (b[2] !== 0) throw new ProtocolError("Fragmented SOCKS5 UDP datagram");
  const a = decodeAddress(b, 3);
  if (!a) throw new ProtocolError("Truncated SOCKS5 UDP address");
  return { addr: a.addr, payload: b.subarray(a.next) };
}

export function encodeUdpDatagram(addr: Address, payload: Uint8Array): Uint8Array {
  const a = encodeAddress(addr);
  const out = new Uint8Array(3 + a.length + payload.length);
  out.set(a, 3);
  out.set(payload, 3 + a.length);
  return out;
}

/** Big-endian bytes of an address's 32-bit words. */
function bytesOf(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w));
  return out;
}

function wordsOf(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(i * 4));
}
