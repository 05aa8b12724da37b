/**
 * The HTTP/3 (RFC 9114) and QPACK (RFC 9204) pieces a DNS-over-HTTP/3 client needs, as pure
 * codecs: QUIC variable-length integers, frames, SETTINGS, and field sections that use only the
 * static table and literals (no dynamic table: Required Insert Count 0). Huffman-coded strings
 * (RFC 7541 Appendix B) are decoded. Decoders throw ProtocolError only.
 */
import { ProtocolError } from "../../common/errors.ts";

export const FRAME_DATA = 0x00;
export const FRAME_HEADERS = 0x01;
export const FRAME_SETTINGS = 0x04;
export const FRAME_GOAWAY = 0x07;
export const STREAM_CONTROL = 0x00;
export const SETTING_QPACK_MAX_TABLE_CAPACITY = 0x01;
export const SETTING_QPACK_BLOCKED_STREAMS = 0x07;

// ---- QUIC variable-length integers (RFC 9000 §16) ----

export function encodeVarint(n: number): Uint8Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new ProtocolError(`Cannot encode ${n} as a QUIC varint`);
  if (n < 0x40) return Uint8Array.of(n);
  if (n < 0x4000) return Uint8Array.of(0x40 | (n >> 8), n & 0xff);
  if (n < 0x40000000) return Uint8Array.of(0x80 | (n >>> 24), (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  const hi = Math.floor(n / 0x100000000);
  const lo = n >>> 0;
  return Uint8Array.of(
    0xc0 | (hi >>> 24),
    (hi >>> 16) & 0xff,
    (hi >>> 8) & 0xff,
    hi & 0xff,
    lo >>> 24,
    (lo >>> 16) & 0xff,
    (lo >>> 8) & 0xff,
    lo & 0xff,
  );
}

/** Reads a varint at `off`: [value, next offset], or undefined when `b` ends first. */
export function readVarint(b: Uint8Array, off: number): [number, number] | undefined {
  if (off >= b.length) return undefined;
  const len = 1 << (b[off] >> 6);
  if (off + len > b.length) return undefined;
  let v = b[off] & 0x3f;
  // Values past 2^53 lose precision; they only occur as types that are ignored or lengths refused.
  for (let i = 1; i < len; i++) v = v * 256 + b[off + i];
  return [v, off + len];
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

// ---- Frames (RFC 9114 §7) ----

export interface Frame {
  type: number;
  payload: Uint8Array;
}

export function encodeFrame(type: number, payload: Uint8Array): Uint8Array {
  return concat([encodeVarint(type), encodeVarint(payload.length), payload]);
}

/** A SETTINGS frame from [identifier, value] pairs. */
export function encodeSettings(settings: [number, number][]): Uint8Array {
  return encodeFrame(
    FRAME_SETTINGS,
    concat(settings.flatMap(([k, v]) => [encodeVarint(k), encodeVarint(v)])),
  );
}

/** Decodes a SETTINGS payload; a repeated identifier is an error (RFC 9114 §7.2.4). */
export function decodeSettings(payload: Uint8Array): Map<number, number> {
  const out = new Map<number, number>();
  let off = 0;
  while (off < payload.length) {
    const k = readVarint(payload, off);
    const v = k && readVarint(payload, k[1]);
    if (!k || !v) throw new ProtocolError("HTTP/3 SETTINGS frame is truncated");
    if (out.has(k[0])) throw new ProtocolError(`HTTP/3 SETTINGS frame repeats setting ${k[0]}`);
    out.set(k[0], v[0]);
    off = v[1];
  }
  return out;
}

/** Splits a stream's bytes into frames as they arrive; frames longer than `maxPayload` are refused. */
export class FrameReader {
  private buf: Uint8Array = new Uint8Array(0);

  constructor(private readonly maxPayload = 65536 + 1024) {}

  push(chunk: Uint8Array): void {
    if (this.buf.length === 0) {
      this.buf = chunk.slice();
      return;
    }
    this.buf = concat([this.buf, chunk]);
  }

  /** The next whole frame, or undefined until more bytes arrive. */
  next(): Frame | undefined {
    const t = readVarint(this.buf, 0);
    const l = t && readVarint(this.buf, t[1]);
    if (!t || !l) return undefined;
    if (l[0] > this.maxPayload) {
      throw new ProtocolError(`HTTP/3 frame of type ${t[0]} is too long: ${l[0]} bytes`);
    }
    const end = l[1] + l[0];
    if (end > this.buf.length) return undefined;
    const payload = this.buf.slice(l[1], end);
    this.buf = this.buf.subarray(end);
    return { type: t[0], payload };
  }

  /** Bytes left over that do not make a whole frame. */
  get pending(): number {
    return this.buf.length;
  }
}

// ---- QPACK static table (RFC 9204 Appendix A) ----

const S = (name: string, value = ""): [string, string] => [name, value];
export const STATIC_TABLE: readonly (readonly [string, string])[] = [
  S(":authority"),
  S(":path", "/"),
  S("age", "0"),
  S("content-disposition"),
  S("content-length", "0"),
  S("cookie"),
  S("date"),
  S("etag"),
  S("if-modified-since"),
  S("if-none-match"),
  S("last-modified"),
  S("link"),
  S("location"),
  S("referer"),
  S("set-cookie"),
  ...["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].map((v) => S(":method", v)),
  S(":scheme", "http"),
  S(":scheme", "https"),
  ...["103", "200", "304", "404", "503"].map((v) => S(":status", v)),
  S("accept", "*/*"),
  S("accept", "application/dns-message"),
  S("accept-encoding", "gzip, deflate, br"),
  S("accept-ranges", "bytes"),
  S("access-control-allow-headers", "cache-control"),
  S("access-control-allow-headers", "content-type"),
  S("access-control-allow-origin", "*"),
  ...["max-age=0", "max-age=2592000", "max-age=604800", "no-cache", "no-store", "public, max-age=31536000"]
    .map((v) => S("cache-control", v)),
  S("content-encoding", "br"),
  S("content-encoding", "gzip"),
  ...[
    "application/dns-message",
    "application/javascript",
    "application/json",
    "application/x-www-form-urlencoded",
    "image/gif",
    "image/jpeg",
    "image/png",
    "text/css",
    "text/html; charset=utf-8",
    "text/plain",
    "text/plain;charset=utf-8",
  ].map((v) => S("content-type", v)),
  S("range", "bytes=0-"),
  ...["", "; includesubdomains", "; includesubdomains; preload"]
    .map((v) => S("strict-transport-security", `max-age=31536000${v}`)),
  S("vary", "accept-encoding"),
  S("vary", "origin"),
  S("x-content-type-options", "nosniff"),
  S("x-xss-protection", "1; mode=block"),
  ...["100", "204", "206", "302", "400", "403", "421", "425", "500"].map((v) => S(":status", v)),
  S("accept-language"),
  S("access-control-allow-credentials", "FALSE"),
  S("access-control-allow-credentials", "TRUE"),
  S("access-control-allow-headers", "*"),
  S("access-control-allow-methods", "get"),
  S("access-control-allow-methods", "get, post, options"),
  S("access-control-allow-methods", "options"),
  S("access-control-expose-headers", "content-length"),
  S("access-control-request-headers", "content-type"),
  S("access-control-request-method", "get"),
  S("access-control-request-method", "post"),
  S("alt-svc", "clear"),
  S("authorization"),
  S("content-security-policy", "script-src 'none'; object-src 'none'; base-uri 'none'"),
  S("early-data", "1"),
  S("expect-ct"),
  S("forwarded"),
  S("if-range"),
  S("origin"),
  S("purpose", "prefetch"),
  S("server"),
  S("timing-allow-origin", "*"),
  S("upgrade-insecure-requests", "1"),
  S("user-agent"),
  S("x-forwarded-for"),
  S("x-frame-options", "deny"),
  S("x-frame-options", "sameorigin"),
];

// ---- Huffman code (RFC 7541 Appendix B) ----

/**
 * The code length of each byte value, as a letter: 'A' is 5 bits. The code is canonical, so the
 * codes follow from the lengths (shorter first, then by symbol); EOS is the 30-bit all-ones code.
 */
const HUFFMAN_LENGTHS =
  "ISXXXXXXXTZXXZXXXXXXXXZXXXXXXXXXBFFHIBDGFFDGDBBBAAABBBBBBBCDKBHFIBCCCCCCCCCCCCCCCCCCCCCCDCDIOIJ" +
  "BKABABABBBACCBBBABCBAABCCCCCKGJIXPRPPRRRSRSSSSSTSTTRSTSSSSQRSRSSTRQPRRSSQSRRTQRSSQQRQSRSSPRRRSRRSVVPORSRUVV" +
  "VWWVTUOQVWWVWTQQVVXWWWPTPQRQQSRRUUTTVSVWVVWWWWWXWWWWWV";

interface Huffman {
  codes: number[];
  lengths: number[];
  /** (code * 32 + length) to symbol. */
  decode: Map<number, number>;
}

function buildHuffman(): Huffman {
  const lengths = [...HUFFMAN_LENGTHS].map((c) => c.charCodeAt(0) - 60);
  const order = [...lengths.keys()].sort((a, b) => lengths[a] - lengths[b] || a - b);
  const codes = new Array<number>(256);
  const decode = new Map<number, number>();
  let code = 0;
  let prev = lengths[order[0]];
  order.forEach((sym, i) => {
    if (i > 0) code = (code + 1) * 2 ** (lengths[sym] - prev);
    prev = lengths[sym];
    codes[sym] = code;
    decode.set(code * 32 + lengths[sym], sym);
  });
  return { codes, lengths, decode };
}
const HUFFMAN: Readonly<Huffman> = buildHuffman();

export function huffmanEncode(b: Uint8Array): Uint8Array {
  const { codes, lengths } = HUFFMAN;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const x of b) {
    let len = lengths[x];
    const code = codes[x];
    while (len > 0) {
      const take = Math.min(len, 8 - bits);
      const part = Math.floor(code / 2 ** (len - take)) & ((1 << take) - 1);
      acc = (acc << take) | part;
      bits += take;
      len -= take;
      if (bits === 8) {
        out.push(acc);
        acc = 0;
        bits = 0;
      }
    }
  }
  if (bits > 0) out.push((acc << (8 - bits)) | ((1 << (8 - bits)) - 1));
  return Uint8Array.from(out);
}

export function huffmanDecode(b: Uint8Array): Uint8Array {
  const { decode } = HUFFMAN;
  const out: number[] = [];
  let code = 0;
  let len = 0;
  for (const byte of b) {
    for (let i = 7; i >= 0; i--) {
      code = code * 2 + ((byte >> i) & 1);
      len++;
      const sym = decode.get(code * 32 + len);
      if (sym !== undefined) {
        out.push(sym);
        code = 0;
        len = 0;
      } else if (len >= 30) {
        throw new ProtocolError("Huffman-coded string holds an invalid code or EOS");
      }
    }
  }
  // Padding: fewer than 8 bits, all ones (a prefix of EOS).
  if (len > 7 || code !== 2 ** len - 1) throw new ProtocolError("Huffman-coded string has bad padding");
  return Uint8Array.from(out);
}

// ---- QPACK field sections (RFC 9204 §4.5) ----

export type Field = [name: string, value: string];
const enc = new TextEncoder();
const dec = new TextDecoder();

/** An integer with an N-bit prefix (RFC 7541 §5.1); `flags` fills the bits above the prefix. */
function encodeInt(flags: number, prefix: number, n: number): number[] {
  const max = (1 << prefix) - 1;
  if (n < max) return [flags | n];
  const out = [flags | max];
  n -= max;
  while (n >= 128) {
    out.push((n % 128) + 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

function decodeInt(b: Uint8Array, off: number, prefix: number): [number, number] {
  if (off >= b.length) throw new ProtocolError("QPACK field section is truncated");
  const max = (1 << prefix) - 1;
  let n = b[off] & max;
  off++;
  if (n < max) return [n, off];
  let shift = 0;
  while (true) {
    if (off >= b.length) throw new ProtocolError("QPACK field section is truncated");
    const x = b[off++];
    n += (x & 0x7f) * 2 ** shift;
    shift += 7;
    if (n > 0xffffffff) throw new ProtocolError("QPACK integer is too large");
    if ((x & 0x80) === 0) return [n, off];
  }
}

/** A string literal with an N-bit length prefix, H bit just above it (not Huffman-coded here). */
function encodeString(flags: number, prefix: number, s: string): number[] {
  const bytes = enc.encode(s);
  return [...encodeInt(flags, prefix, bytes.length), ...bytes];
}

function decodeString(b: Uint8Array, off: number, prefix: number): [string, number] {
  const huff = (b[off] & (1 << prefix)) !== 0;
  const [len, start] = decodeInt(b, off, prefix);
  if (start + len > b.length) throw new ProtocolError("QPACK string runs past the end of the field section");
  const raw = b.subarray(start, start + len);
  return [dec.decode(huff ? huffmanDecode(raw) : raw), start + len];
}

function staticEntry(index: number): readonly [string, string] {
  const e = STATIC_TABLE[index];
  if (!e) throw new ProtocolError(`QPACK static table has no entry ${index}`);
  return e;
}

/**
 * Encodes a field section with static references and literals only: a whole static match is an
 * indexed field line, a static name a literal with name reference, anything else a literal name.
 */
export function encodeFieldSection(fields: Field[]): Uint8Array {
  const out: number[] = [0x00, 0x00]; // Required Insert Count 0, Delta Base 0.
  for (const [name, value] of fields) {
    const exact = STATIC_TABLE.findIndex(([n, v]) => n === name && v === value);
    if (exact >= 0) {
      out.push(...encodeInt(0xc0, 6, exact)); // 1 T=1 index
      continue;
    }
    const named = STATIC_TABLE.findIndex(([n]) => n === name);
    if (named >= 0) out.push(...encodeInt(0x50, 4, named)); // 01 N=0 T=1 index
    else out.push(...encodeString(0x20, 3, name)); // 001 N=0 H=0 name
    out.push(...encodeString(0x00, 7, value)); // H=0 value
  }
  return Uint8Array.from(out);
}

/** Decodes a field section that needs no dynamic table; references to one are a ProtocolError. */
export function decodeFieldSection(b: Uint8Array): Field[] {
  const [ric, afterRic] = decodeInt(b, 0, 8);
  if (ric !== 0) {
    throw new ProtocolError("QPACK field section refers to the dynamic table, which is disabled");
  }
  let [, off] = decodeInt(b, afterRic, 7); // Delta Base: meaningless without a dynamic table.
  const fields: Field[] = [];
  while (off < b.length) {
    const x = b[off];
    if (x & 0x80) {
      if ((x & 0x40) === 0) throw new ProtocolError("QPACK indexed field line refers to the dynamic table");
      const [i, next] = decodeInt(b, off, 6);
      fields.push([...staticEntry(i)]);
      off = next;
    } else if (x & 0x40) {
      if ((x & 0x10) === 0) throw new ProtocolError("QPACK field line refers to the dynamic table");
      const [i, next] = decodeInt(b, off, 4);
      const [value, end] = decodeString(b, next, 7);
      fields.push([staticEntry(i)[0], value]);
      off = end;
    } else if (x & 0x20) {
      const [name, next] = decodeString(b, off, 3);
      const [value, end] = decodeString(b, next, 7);
      fields.push([name.toLowerCase(), value]);
      off = end;
    } else {
      throw new ProtocolError("QPACK post-base field line refers to the dynamic table");
    }
  }
  return fields;
}
