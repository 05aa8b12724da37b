/**
 * DNS messages for the DNS core: `dns-packet` wrapped so that bad input raises DnsError and nothing
 * else, plus helpers that work on the wire form directly (id, rcode, question, TTLs, addresses)
 * and EDNS Client Subnet. Pure functions; no I/O.
 */
import { Buffer } from "node:buffer";
import * as dnsPacket from "dns-packet";
import { DnsError, errorText } from "../common/errors.ts";
import { type Cidr, formatCidr, formatIp, parseCidr } from "../common/ip.ts";

export const RCODES = ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"] as const;
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
export const TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, OPT: 41 } as const;

/** A record as dns-packet reads and writes it (OPT records carry `options` instead of `data`). */
export interface DnsRecord {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  data?: unknown;
  udpPayloadSize?: number;
  flags?: number;
  options?: { code: number | string; [k: string]: unknown }[];
}

export interface DnsMessage {
  id?: number;
  type?: "query" | "response";
  flags?: number;
  rcode?: string;
  questions?: { name: string; type: string; class?: string }[];
  answers?: DnsRecord[];
  authorities?: DnsRecord[];
  additionals?: DnsRecord[];
}

interface Codec {
  encode(m: DnsMessage): Uint8Array;
  decode(b: Uint8Array): DnsMessage;
  RECURSION_DESIRED: number;
  RECURSION_AVAILABLE: number;
}
const codec = dnsPacket as unknown as Codec;

/** Decodes a message; any malformed or truncated input raises DnsError. */
export function decodeMessage(b: Uint8Array): DnsMessage {
  scan(b); // bounds-checks every section first, so dns-packet only sees well-formed framing
  try {
    return codec.decode(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  } catch (e) {
    throw new DnsError(`Malformed DNS message: ${errorText(e)}`, { cause: e });
  }
}

export function encodeMessage(m: DnsMessage): Uint8Array {
  try {
    return new Uint8Array(codec.encode(m));
  } catch (e) {
    throw new DnsError(`Cannot encode DNS message: ${errorText(e)}`, { cause: e });
  }
}

function malformed(detail: string): DnsError {
  return new DnsError(`Malformed DNS message: ${detail}`);
}

function u16(b: Uint8Array, off: number): number {
  if (off + 2 > b.length) throw malformed("truncated");
  return (b[off] << 8) | b[off + 1];
}

const UTF8 = new TextDecoder(); // stateless in non-streaming use

/** A label as lowercase text: ASCII by hand (the common case, and hot), anything else as UTF-8. */
function label(b: Uint8Array, pos: number, len: number): string {
  let s = "";
  for (let i = pos; i < pos + len; i++) {
    const c = b[i];
    if (c >= 0x80) return UTF8.decode(b.subarray(pos, pos + len)).toLowerCase();
    s += String.fromCharCode(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
  }
  return s;
}

/** Reads the (possibly compressed) name at `off`: lowercase, no trailing dot, and the offset after it. */
function readName(b: Uint8Array, off: number): [string, number] {
  const labels: string[] = [];
  let pos = off, end = -1, total = 0;
  for (let hops = 0;;) {
    if (pos >= b.length) throw malformed("name runs past the end");
    const len = b[pos];
    if ((len & 0xc0) === 0xc0) {
      if (pos + 1 >= b.length) throw malformed("name runs past the end");
      const target = ((len & 0x3f) << 8) | b[pos + 1];
      if (end < 0) end = pos + 2;
      if (target >= pos || ++hops > 127) throw malformed("bad compression pointer");
      pos = target;
      continue;
    }
    if (len & 0xc0) throw malformed("bad label type");
    pos++;
    if (len === 0) break;
    if (pos + len > b.length) throw malformed("label runs past the end");
    total += len + 1;
    if (total > 255) throw malformed("name longer than 255 bytes");
    labels.push(label(b, pos, len));
    pos += len;
  }
  return [labels.join("."), end < 0 ? pos : end];
}

export interface WireQuestion {
  /** Lowercase, without the trailing dot ("" for the root). */
  name: string;
  type: number;
  class: number;
}

/** A resource record's place in a message. */
export interface WireRecord {
  section: "answer" | "authority" | "additional";
  type: number;
  /** Offset of the TTL field; the data follows at ttlOffset + 6. */
  ttlOffset: number;
  rdLength: number;
}

/** Walks every section; throws DnsError unless the message parses completely. */
export function scan(b: Uint8Array): { question?: WireQuestion; records: WireRecord[] } {
  if (b.length < 12) throw malformed(`${b.length} bytes is shorter than a header`);
  let off = 12;
  let question: WireQuestion | undefined;
  const qd = u16(b, 4);
  for (let i = 0; i < qd; i++) {
    const [name, after] = readName(b, off);
    const q = { name, type: u16(b, after), class: u16(b, after + 2) };
    question ??= q;
    off = after + 4;
  }
  const counts = [u16(b, 6), u16(b, 8), u16(b, 10)];
  const sections = ["answer", "authority", "additional"] as const;
  const records: WireRecord[] = [];
  for (let s = 0; s < 3; s++) {
    for (let i = 0; i < counts[s]; i++) {
      const after = readName(b, off)[1];
      const type = u16(b, after);
      const rdLength = u16(b, after + 8);
      off = after + 10 + rdLength;
      if (off > b.length) throw malformed("record data runs past the end");
      records.push({ section: sections[s], type, ttlOffset: after + 4, rdLength });
    }
  }
  return { question, records };
}

export function messageId(b: Uint8Array): number {
  if (b.length < 2) throw malformed("truncated");
  return (b[0] << 8) | b[1];
}

/** A copy of `b` with id `id`. */
export function setId(b: Uint8Array, id: number): Uint8Array {
  if (b.length < 12) throw malformed(`${b.length} bytes is shorter than a header`);
  const c = b.slice();
  c[0] = (id >> 8) & 0xff;
  c[1] = id & 0xff;
  return c;
}

export function rcodeOf(b: Uint8Array): number {
  if (b.length < 12) throw malformed(`${b.length} bytes is shorter than a header`);
  return b[3] & 0x0f;
}

/** The first question, or undefined when the message has none. */
export function questionOf(b: Uint8Array): WireQuestion | undefined {
  return scan(b).question;
}

function ttlAt(b: Uint8Array, off: number): number {
  return ((b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3]) >>> 0;
}

/**
 * How long a response may be kept, in seconds: the least TTL of its records (OPT aside); with no
 * answer, the SOA's (least of its TTL and MINIMUM field); undefined when it says nothing.
 */
export function cacheTtl(b: Uint8Array): number | undefined {
  const { records } = scan(b);
  const hasAnswer = records.some((r) => r.section === "answer");
  let min: number | undefined;
  for (const r of records) {
    if (r.type === TYPE.OPT) continue;
    let ttl = ttlAt(b, r.ttlOffset);
    if (!hasAnswer) {
      if (r.type !== TYPE.SOA || r.section !== "authority" || r.rdLength < 20) continue;
      ttl = Math.min(ttl, ttlAt(b, r.ttlOffset + 6 + r.rdLength - 4));
    }
    min = min === undefined ? ttl : Math.min(min, ttl);
  }
  return min;
}

/** A copy of `b` whose records (OPT aside) carry `ttl(old)` seconds. */
export function rewriteTtl(b: Uint8Array, ttl: number | ((old: number) => number)): Uint8Array {
  return rewriteTtlAt(b, ttlOffsets(b), ttl);
}

/** Offsets of the TTL fields of `b`'s records, OPT aside (for `rewriteTtlAt`). */
export function ttlOffsets(b: Uint8Array): number[] {
  const out: number[] = [];
  for (const r of scan(b).records) if (r.type !== TYPE.OPT) out.push(r.ttlOffset);
  return out;
}

/** `rewriteTtl` with the TTL offsets already known (from `ttlOffsets` of the same message). */
export function rewriteTtlAt(
  b: Uint8Array,
  offsets: readonly number[],
  ttl: number | ((old: number) => number),
): Uint8Array {
  const c = b.slice();
  for (const off of offsets) {
    const next = typeof ttl === "number" ? ttl : ttl(ttlAt(c, off));
    const v = Math.max(0, Math.min(0x7fffffff, Math.floor(next)));
    c[off] = v >>> 24, c[off + 1] = (v >>> 16) & 0xff, c[off + 2] = (v >>> 8) & 0xff, c[off + 3] = v & 0xff;
  }
  return c;
}

/** Addresses in the answer section (A and AAAA records), as canonical text. */
export function answerAddresses(b: Uint8Array): string[] {
  const out: string[] = [];
  for (const r of scan(b).records) {
    if (r.section !== "answer") continue;
    const at = r.ttlOffset + 6;
    if (r.type === TYPE.A && r.rdLength === 4) {
      const v = ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
      out.push(formatIp({ version: 4, words: Uint32Array.of(v) }));
    } else if (r.type === TYPE.AAAA && r.rdLength === 16) {
      const words = new Uint32Array(4);
      for (let k = 0; k < 4; k++) words[k] = ttlAt(b, at + 4 * k);
      out.push(formatIp({ version: 6, words }));
    }
  }
  return out;
}

export interface ResponseParts {
  answers?: DnsRecord[];
  authorities?: DnsRecord[];
  additionals?: DnsRecord[];
}

/** A response to `query` made here: its id and question, RD copied, RA set, `rcode` and records. */
export function buildResponse(query: Uint8Array, rcode: number, parts: ResponseParts = {}): Uint8Array {
  const q = decodeMessage(query);
  const rd = (q.flags ?? 0) & codec.RECURSION_DESIRED;
  return encodeMessage({
    id: q.id ?? 0,
    type: "response",
    flags: rd | codec.RECURSION_AVAILABLE | (rcode & 0x0f),
    questions: (q.questions ?? []).slice(0, 1),
    answers: parts.answers ?? [],
    authorities: parts.authorities ?? [],
    additionals: parts.additionals ?? [],
  });
}

/** A query for `name` and `type` with RD set. */
export function buildQuery(name: string, type: string, id = 0): Uint8Array {
  return encodeMessage({
    id,
    type: "query",
    flags: codec.RECURSION_DESIRED,
    questions: [{ name, type, class: "IN" }],
  });
}

/** Parses `client_subnet`: a prefix, or an address meaning /32 or /128; undefined if invalid. */
export function parseClientSubnet(text: string): Cidr | undefined {
  return parseCidr(text.trim());
}

const ECS = 8;
const isEcs = (o: { code: number | string }) => o.code === ECS || o.code === "CLIENT_SUBNET";

/** A copy of `query` carrying `subnet` as its EDNS Client Subnet (replacing any), or none when undefined. */
export function withClientSubnet(query: Uint8Array, subnet: Cidr | undefined): Uint8Array {
  const m = decodeMessage(query);
  const additionals = m.additionals ?? [];
  let opt = additionals.find((r) => r.type === "OPT");
  const had = opt?.options?.some(isEcs) ?? false;
  if (!subnet && !had) return query;
  if (!opt) {
    opt = { name: ".", type: "OPT", udpPayloadSize: 1232, flags: 0, options: [] };
    additionals.push(opt);
  }
  const options = (opt.options ?? []).filter((o) => !isEcs(o));
  if (subnet) {
    options.push({
      code: ECS,
      family: subnet.address.version === 4 ? 1 : 2,
      sourcePrefixLength: subnet.bits,
      scopePrefixLength: 0,
      ip: formatIp(subnet.address),
    });
  }
  opt.options = options;
  return encodeMessage({ ...m, additionals });
}

/** `clientSubnetOf` on the wire form; a message with no additional record is not decoded. */
export function clientSubnetOfWire(b: Uint8Array): string {
  if (b.length >= 12 && b[10] === 0 && b[11] === 0) return "";
  return clientSubnetOf(decodeMessage(b));
}

/** The EDNS Client Subnet of a message as `address/bits`, or "" when it has none. */
export function clientSubnetOf(m: DnsMessage): string {
  for (const r of m.additionals ?? []) {
    if (r.type !== "OPT") continue;
    const o = r.options?.find(isEcs);
    if (!o) continue;
    const cidr = parseCidr(`${o.ip}/${o.sourcePrefixLength}`);
    return cidr ? formatCidr(cidr) : "";
  }
  return "";
}

const TYPE_NUMBERS: Record<string, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  TLSA: 52,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  ANY: 255,
  CAA: 257,
}; // deno-fmt-ignore

/** A record type's number by name (any case, or `TYPE<n>`), undefined if unknown. */
export function queryTypeNumber(name: string): number | undefined {
  const upper = name.toUpperCase();
  const m = /^TYPE(\d{1,5})$/.exec(upper);
  if (m && Number(m[1]) <= 65535) return Number(m[1]);
  return TYPE_NUMBERS[upper];
}
