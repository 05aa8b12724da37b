/**
 * IP address literals: parsing to a compact form, CIDR prefixes, canonical text, and sing-box's
 * notion of a private address. Pure functions; the hot-path parser writes into a caller's buffer.
 *
 * The compact form is four big-endian 32-bit words. An IPv4 address uses only word 0. Zones
 * (`fe80::1%eth0`) and brackets are not accepted.
 */

export type IpVersion = 4 | 6;

/** A parsed address; `words` holds 1 (IPv4) or 4 (IPv6) big-endian 32-bit words. */
export interface IpAddress {
  readonly version: IpVersion;
  readonly words: Uint32Array;
}

/** A prefix with its host bits cleared. */
export interface Cidr {
  readonly address: IpAddress;
  readonly bits: number;
}

const COLON = 58;
const DOT = 46;

/** Parses dotted-quad IPv4 from `text[start, end)` (no leading zeros, as Go's netip); -1 if invalid. */
function parseV4(text: string, start: number, end: number): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let leadingZero = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits > 0 && leadingZero) return -1;
      if (digits === 0) leadingZero = c === 48;
      part = part * 10 + c - 48;
      if (part > 255) return -1;
      digits++;
    } else if (c === DOT) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + part;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Parses IPv6 text into `out` (4 words); false if invalid. */
function parseV6(text: string, out: Uint32Array): boolean {
  const end = text.length;
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  let gap = -1; // group index where "::" stands
  let i = 0;
  if (end < 2) return false;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return false;
    gap = 0;
    i = 2;
  }
  while (i < end) {
    if (count === 8) return false;
    let value = 0;
    let digits = 0;
    const groupStart = i;
    for (let h = hexValue(text.charCodeAt(i)); h >= 0 && i < end; h = hexValue(text.charCodeAt(++i))) {
      value = value * 16 + h;
      digits++;
    }
    if (i < end && text.charCodeAt(i) === DOT) {
      // Embedded IPv4 in the last 32 bits.
      if (count > 6) return false;
      const v4 = parseV4(text, groupStart, end);
      if (v4 < 0) return false;
      groups[count++] = Math.floor(v4 / 65536);
      groups[count++] = v4 % 65536;
      break;
    }
    if (digits === 0 || digits > 4) return false;
    groups[count++] = value;
    if (i === end) break;
    if (text.charCodeAt(i) !== COLON) return false;
    i++;
    if (i === end) return false; // trailing single colon
    if (text.charCodeAt(i) === COLON) {
      if (gap >= 0) return false;
      gap = count;
      i++;
    }
  }
  if (gap < 0) {
    if (count !== 8) return false;
  } else {
    if (count > 7) return false;
    const shift = 8 - count;
    for (let k = 7; k >= gap + shift; k--) groups[k] = groups[k - shift];
    for (let k = gap; k < gap + shift; k++) groups[k] = 0;
  }
  out[0] = groups[0] * 65536 + groups[1];
  out[1] = groups[2] * 65536 + groups[3];
  out[2] = groups[4] * 65536 + groups[5];
  out[3] = groups[6] * 65536 + groups[7];
  return true;
}

/** True for `::ffff:0:0/96` words. */
function isMapped(w: ArrayLike<number>): boolean {
  return w[0] === 0 && w[1] === 0 && w[2] === 0xffff;
}

/**
 * Hot-path parser: writes the address into `out` (length >= 4) and returns its version, 0 if
 * `text` is not an IP literal. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is unmapped and reported as 4,
 * as sing-box unmaps addresses before matching.
 */
export function parseIpInto(text: string, out: Uint32Array): 0 | IpVersion {
  const n = text.length;
  if (n === 0 || n > 45) return 0;
  if (text.indexOf(":") < 0) {
    const v4 = parseV4(text, 0, n);
    if (v4 < 0) return 0;
    out[0] = v4;
    return 4;
  }
  if (!parseV6(text, out)) return 0;
  if (isMapped(out)) {
    out[0] = out[3];
    return 4;
  }
  return 6;
}

/** Parses an IP literal keeping its family (a mapped IPv4 stays IPv6); undefined if invalid. */
export function parseIp(text: string): IpAddress | undefined {
  const words = new Uint32Array(4);
  if (text.indexOf(":") < 0) {
    const v4 = parseV4(text, 0, text.length);
    return v4 < 0 ? undefined : { version: 4, words: Uint32Array.of(v4) };
  }
  return parseV6(text, words) ? { version: 6, words } : undefined;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address, else the address itself. */
export function unmapIp(address: IpAddress): IpAddress {
  if (address.version === 6 && isMapped(address.words)) {
    return { version: 4, words: Uint32Array.of(address.words[3]) };
  }
  return address;
}

/** 4 or 6 when `host` is an IP literal (mapped IPv4 counts as 4), else 0. */
export function ipVersion(host: string): 0 | IpVersion {
  return parseIpInto(host, new Uint32Array(4));
}

/** Clears the host bits of `words` (in place) beyond `bits`. */
function maskWords(words: Uint32Array, count: number, bits: number): void {
  for (let k = 0; k < count; k++) {
    const keep = bits - k * 32;
    if (keep >= 32) continue;
    words[k] = keep <= 0 ? 0 : (words[k] & (0xffffffff << (32 - keep))) >>> 0;
  }
}

/**
 * Parses `a.b.c.d/n` or `x::y/n`; a bare address is a full-length prefix (as sing-box accepts).
 * Host bits are cleared, like Go's `Prefix.Masked`. Undefined if invalid.
 */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf("/");
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const address = parseIp(addressText);
  if (!address) return undefined;
  const max = address.version === 4 ? 32 : 128;
  let bits = max;
  if (slash >= 0) {
    const bitsText = text.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(bitsText)) return undefined;
    bits = Number(bitsText);
    if (bits > max) return undefined;
  }
  maskWords(address.words, address.words.length, bits);
  return { address, bits };
}

/** Canonical text: dotted quad, or RFC 5952 IPv6 (mapped IPv4 as `::ffff:a.b.c.d`). */
export function formatIp(address: IpAddress): string {
  const w = address.words;
  if (address.version === 4) return formatV4(w[0]);
  if (isMapped(w)) return "::ffff:" + formatV4(w[3]);
  const groups: number[] = [];
  for (let k = 0; k < 4; k++) groups.push(w[k] >>> 16, w[k] & 0xffff);
  // Longest run (length >= 2) of zero groups, first one on ties.
  let bestStart = -1, bestLen = 1;
  for (let k = 0; k < 8;) {
    if (groups[k] !== 0) {
      k++;
      continue;
    }
    let j = k;
    while (j < 8 && groups[j] === 0) j++;
    if (j - k > bestLen) {
      bestStart = k;
      bestLen = j - k;
    }
    k = j;
  }
  if (bestStart < 0) return groups.map((g) => g.toString(16)).join(":");
  const head = groups.slice(0, bestStart).map((g) => g.toString(16)).join(":");
  const tail = groups.slice(bestStart + bestLen).map((g) => g.toString(16)).join(":");
  return head + "::" + tail;
}

function formatV4(v: number): string {
  return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

/** Canonical text of an IP literal, undefined if `text` is not one. */
export function canonicalIp(text: string): string | undefined {
  const address = parseIp(text);
  return address ? formatIp(address) : undefined;
}

/** Canonical `address/bits` text of a prefix. */
export function formatCidr(cidr: Cidr): string {
  return `${formatIp(cidr.address)}/${cidr.bits}`;
}

/**
 * sing-box's "not public" (sing `N.IsPublicAddr` negated): Go netip's IsPrivate, IsLoopback,
 * IsMulticast (covers link-local multicast), IsLinkLocalUnicast, IsInterfaceLocalMulticast or
 * IsUnspecified. Works on the parseIpInto form (mapped IPv4 already unmapped). CGNAT 100.64/10
 * is public, as in Go.
 */
export function isPrivateWords(version: IpVersion, w: ArrayLike<number>): boolean {
  if (version === 4) {
    const v = w[0];
    const a = v >>> 24;
    const b = (v >>> 16) & 255;
    return a === 10 || // IsPrivate 10/8
      (a === 172 && (b & 0xf0) === 16) || // IsPrivate 172.16/12
      (a === 192 && b === 168) || // IsPrivate 192.168/16
      a === 127 || // IsLoopback 127/8
      (a === 169 && b === 254) || // IsLinkLocalUnicast 169.254/16
      (a & 0xf0) === 224 || // IsMulticast 224/4
      v === 0; // IsUnspecified 0.0.0.0
  }
  const top = w[0] >>> 16;
  if ((top & 0xfe00) === 0xfc00) return true; // IsPrivate fc00::/7
  if ((top & 0xffc0) === 0xfe80) return true; // IsLinkLocalUnicast fe80::/10
  if ((top & 0xff00) === 0xff00) return true; // IsMulticast ff00::/8 (and ff01::/16, ff02::/16)
  if (w[0] === 0 && w[1] === 0 && w[2] === 0) return w[3] === 0 || w[3] === 1; // :: and ::1
  return false;
}

/** isPrivateWords on text; false when `host` is not an IP literal. */
export function isPrivateIp(host: string): boolean {
  const w = new Uint32Array(4);
  const version = parseIpInto(host, w);
  return version !== 0 && isPrivateWords(version, w);
}
