/**
 * DNS messages on the wire: a small validating walker (pure, fuzzable; the only check a response
 * passes before a transport hands it on) and a typed wrapper over `dns-packet` for the servers
 * that build answers themselves (local, hosts).
 */
import { Buffer } from "node:buffer";
import * as dnsPacket from "dns-packet";
import { DnsError, errorText } from "../../common/errors.ts";

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
/** TTL of answers a server makes up itself (sing-box's default DNS TTL). */
export const DEFAULT_TTL = 600;

export interface Question {
  name: string;
  type: string;
  class?: string;
}

export interface Answer {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  data: unknown;
}

export interface Message {
  id?: number;
  type?: "query" | "response";
  flags?: number;
  rcode?: string;
  questions?: Question[];
  answers?: Answer[];
  authorities?: Answer[];
  additionals?: Answer[];
}

interface DnsPacketModule {
  encode(m: Message): Uint8Array;
  decode(b: Uint8Array): Message;
  RECURSION_DESIRED: number;
  RECURSION_AVAILABLE: number;
  AUTHORITATIVE_ANSWER: number;
}
const codec = dnsPacket as unknown as DnsPacketModule;
export const FLAG_RD = codec.RECURSION_DESIRED;
export const FLAG_RA = codec.RECURSION_AVAILABLE;

export function encodeMessage(m: Message): Uint8Array {
  try {
    return new Uint8Array(codec.encode(m));
  } catch (e) {
    throw new DnsError(`Cannot encode DNS message: ${errorText(e)}`, { cause: e });
  }
}

export function decodeMessage(b: Uint8Array): Message {
  try {
    return codec.decode(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  } catch (e) {
    throw new DnsError(`Malformed DNS message: ${errorText(e)}`, { cause: e });
  }
}

export function messageId(b: Uint8Array): number {
  return (b[0] << 8) | b[1];
}

/** A copy of `b` with its id set to `id`. */
export function withId(b: Uint8Array, id: number): Uint8Array {
  const c = b.slice();
  c[0] = id >> 8;
  c[1] = id & 0xff;
  return c;
}

export function randomId(): number {
  return crypto.getRandomValues(new Uint16Array(1))[0];
}

export function isResponse(b: Uint8Array): boolean {
  return b.length >= 12 && (b[2] & 0x80) !== 0;
}

export function isTruncated(b: Uint8Array): boolean {
  return b.length >= 3 && (b[2] & 0x02) !== 0;
}

export function rcodeOf(b: Uint8Array): number {
  return b.length >= 4 ? b[3] & 0x0f : -1;
}

/** The first question of a message: lowercase name (no trailing dot), type and class numbers. */
export interface WireQuestion {
  name: string;
  type: number;
  class: number;
}

/** Reads a (possibly compressed) name at `off`; returns it and the offset after it in place. */
function readName(b: Uint8Array, off: number): [string, number] {
  const labels: string[] = [];
  let end = -1;
  let pos = off;
  let hops = 0;
  let length = 0;
  while (true) {
    if (pos >= b.length) throw new DnsError("Malformed DNS message: name runs past the end");
    const len = b[pos];
    if ((len & 0xc0) === 0xc0) {
      if (pos + 1 >= b.length) throw new DnsError("Malformed DNS message: name runs past the end");
      const target = ((len & 0x3f) << 8) | b[pos + 1];
      if (end < 0) end = pos + 2;
      // Pointers must go backwards, which also bounds the walk.
      if (target >= pos || ++hops > 127) throw new DnsError("Malformed DNS message: bad compression pointer");
      pos = target;
      continue;
    }
    if ((len & 0xc0) !== 0) throw new DnsError("Malformed DNS message: bad label type");
    pos++;
    if (len === 0) break;
    if (pos + len > b.length) throw new DnsError("Malformed DNS message: label runs past the end");
    length += len + 1;
    if (length > 255) throw new DnsError("Malformed DNS message: name longer than 255 bytes");
    let label = "";
    for (let i = pos; i < pos + len; i++) label += String.fromCharCode(b[i]);
    labels.push(label.toLowerCase());
    pos += len;
  }
  return [labels.join("."), end < 0 ? pos : end];
}

function u16(b: Uint8Array, off: number): number {
  if (off + 2 > b.length) throw new DnsError("Malformed DNS message: truncated");
  return (b[off] << 8) | b[off + 1];
}

/** The first question of a query or response, or undefined when it has none. Throws DnsError. */
export function firstQuestion(b: Uint8Array): WireQuestion | undefined {
  if (b.length < 12) throw new DnsError(`Malformed DNS message: ${b.length} bytes is shorter than a header`);
  if (u16(b, 4) === 0) return undefined;
  const [name, off] = readName(b, 12);
  return { name, type: u16(b, off), class: u16(b, off + 2) };
}

/** Walks every section of a message: throws DnsError unless it parses completely. */
export function validateMessage(b: Uint8Array): void {
  if (b.length < 12) throw new DnsError(`Malformed DNS message: ${b.length} bytes is shorter than a header`);
  let off = 12;
  const qd = u16(b, 4);
  for (let i = 0; i < qd; i++) {
    off = readName(b, off)[1] + 4;
    if (off > b.length) throw new DnsError("Malformed DNS message: truncated question");
  }
  const rr = u16(b, 6) + u16(b, 8) + u16(b, 10);
  for (let i = 0; i < rr; i++) {
    off = readName(b, off)[1] + 10;
    if (off > b.length) throw new DnsError("Malformed DNS message: truncated record");
    off += u16(b, off - 2);
    if (off > b.length) throw new DnsError("Malformed DNS message: record data runs past the end");
  }
}

/**
 * Checks that `response` answers `query` (same id, QR set, same first question, every section
 * well formed); a truncated (TC) response only needs its header and question. Throws DnsError.
 */
export function checkResponse(query: Uint8Array, response: Uint8Array): void {
  if (response.length < 12) {
    throw new DnsError(`Malformed DNS response: ${response.length} bytes is shorter than a header`);
  }
  if (!isResponse(response)) throw new DnsError("Malformed DNS response: the QR bit is not set");
  if (messageId(response) !== messageId(query)) {
    throw new DnsError(`DNS response id ${messageId(response)} does not match query id ${messageId(query)}`);
  }
  const q = firstQuestion(query);
  const r = firstQuestion(response);
  if (q && r && (q.name !== r.name || q.type !== r.type || q.class !== r.class)) {
    throw new DnsError(`DNS response is for "${r.name}" type ${r.type}, not "${q.name}" type ${q.type}`);
  }
  if (q && !r && rcodeOf(response) === RCODE.NOERROR) {
    throw new DnsError("Malformed DNS response: the question is missing");
  }
  if (!isTruncated(response)) validateMessage(response);
}

/** Validates a query before it is sent: a header and one question at least. */
export function checkQuery(query: Uint8Array): WireQuestion {
  if (query.length > 65535) throw new DnsError(`DNS query of ${query.length} bytes is too long`);
  const q = firstQuestion(query);
  if (!q) throw new DnsError("DNS query has no question");
  return q;
}

/**
 * A response to `query` made here: the query's id and question, RD copied, RA set, `rcode` and
 * `answers`. Throws DnsError when the query does not parse.
 */
export function buildResponse(query: Uint8Array, rcode: number, answers: Answer[] = []): Uint8Array {
  const q = decodeMessage(query);
  const rd = (q.flags ?? 0) & FLAG_RD;
  return encodeMessage({
    id: q.id ?? messageId(query),
    type: "response",
    flags: rd | FLAG_RA | (rcode & 0x0f),
    questions: (q.questions ?? []).slice(0, 1),
    answers,
  });
}

/** The first question of a query as dns-packet names it (type "A", "AAAA", ...). */
export function queryQuestion(query: Uint8Array): Question {
  const q = decodeMessage(query).questions?.[0];
  if (!q) throw new DnsError("DNS query has no question");
  return q;
}

/** Lowercase, without a trailing dot. */
export function canonicalName(name: string): string {
  const n = name.toLowerCase();
  return n.endsWith(".") ? n.slice(0, -1) : n;
}
