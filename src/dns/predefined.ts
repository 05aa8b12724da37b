/**
 * The `predefined` DNS rule action: records given in zone-file form ("localhost. IN A 127.0.0.1",
 * TTL 3600 unless given) or as base64 of one record's wire form, compiled at config-load time.
 * A record named `*.suffix.` takes the asked name when that ends in `.suffix`.
 */
import { Buffer } from "node:buffer";
import * as dnsPacket from "dns-packet";
import { ConfigError, errorText, UnsupportedError } from "../common/errors.ts";
import { parseIp } from "../common/ip.ts";
import { buildResponse, type DnsRecord, questionOf } from "./message.ts";

export const DEFAULT_PREDEFINED_TTL = 3600;
const RCODE_NAMES = [
  "NOERROR",
  "FORMERR",
  "SERVFAIL",
  "NXDOMAIN",
  "NOTIMP",
  "REFUSED",
  "YXDOMAIN",
  "YXRRSET",
  "NXRRSET",
  "NOTAUTH",
  "NOTZONE",
]; // deno-fmt-ignore

/** A response code by name (any case) or number; ConfigError at `path` otherwise. */
export function parseRcode(value: unknown, path: string): number {
  if (value === undefined) return 0;
  if (typeof value === "number" && Number.isInteger(value)) {
    if (value > 15) throw new UnsupportedError(`${path}: extended response code ${value} is not supported yet`);
    if (value >= 0) return value;
  }
  if (typeof value === "string") {
    const i = RCODE_NAMES.indexOf(value.toUpperCase());
    if (i >= 0) return i;
  }
  throw new ConfigError(path, `unknown response code ${JSON.stringify(value)}: expected a name such as "NXDOMAIN" or a number`);
}

export interface Predefined {
  rcode: number;
  answer: DnsRecord[];
  ns: DnsRecord[];
  extra: DnsRecord[];
}

/** Splits a zone-file line into fields; quoted strings keep spaces and `\"` escapes. */
function tokens(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const m of text.matchAll(re)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2]);
  return out;
}

const CLASSES = new Set(["IN", "CH", "HS", "ANY"]);

function uint(text: string | undefined, max: number, what: string): number {
  if (text === undefined || !/^\d+$/.test(text) || Number(text) > max) {
    throw new Error(`invalid ${what} "${text ?? ""}"`);
  }
  return Number(text);
}

function rdata(type: string, f: string[]): unknown {
  const need = (n: number) => {
    if (f.length !== n) {
      throw new Error(`${type} record needs ${n} data field${n === 1 ? "" : "s"}, got ${f.length}`);
    }
  };
  switch (type) {
    case "A":
    case "AAAA": {
      need(1);
      if (parseIp(f[0])?.version !== (type === "A" ? 4 : 6)) {
        throw new Error(`invalid ${type} address "${f[0]}"`);
      }
      return f[0];
    }
    case "CNAME":
    case "NS":
    case "PTR":
    case "DNAME":
      need(1);
      return f[0];
    case "TXT":
      if (f.length === 0) throw new Error("TXT record needs data");
      return f;
    case "MX":
      need(2);
      return { preference: uint(f[0], 65535, "preference"), exchange: f[1] };
    case "SRV":
      need(4);
      return {
        priority: uint(f[0], 65535, "priority"),
        weight: uint(f[1], 65535, "weight"),
        port: uint(f[2], 65535, "port"),
        target: f[3],
      };
    case "CAA":
      need(3);
      return { flags: uint(f[0], 255, "flags"), tag: f[1], value: f[2] };
    default:
      throw new Error(
        `record type "${type}" is not supported in zone-file form; give the record as base64 of its wire form`,
      );
  }
}

/** Parses one record in zone-file form: `name [ttl] [class] type data...` (ttl and class in any order). */
export function parseZoneRecord(text: string): DnsRecord {
  const f = tokens(text.trim());
  if (f.length < 3) throw new Error('expected "name [ttl] [class] type data"');
  const name = f.shift()!;
  let ttl = DEFAULT_PREDEFINED_TTL, klass = "IN";
  for (let i = 0; i < 2 && f.length > 0; i++) {
    if (/^\d+$/.test(f[0])) ttl = uint(f.shift(), 0x7fffffff, "TTL");
    else if (CLASSES.has(f[0].toUpperCase())) klass = f.shift()!.toUpperCase();
  }
  const type = (f.shift() ?? "").toUpperCase();
  if (!type) throw new Error("missing record type");
  return { name: name.replace(/\.$/, "") || ".", type, class: klass, ttl, data: rdata(type, f) };
}

/** One record: zone-file text, else base64 of its wire form. */
function parseRecord(text: string): DnsRecord {
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(text.trim()) && !/\s/.test(text.trim())) {
    try {
      const buf = Buffer.from(text.trim(), "base64");
      const codec = dnsPacket as unknown as {
        answer: { decode(b: Buffer): DnsRecord; decode_bytes?: number };
      };
      const r = codec.answer.decode(buf);
      return { ...r, name: r.name === "." ? "." : r.name.replace(/\.$/, "") };
    } catch (e) {
      throw new Error(`invalid base64 wire-form record: ${errorText(e)}`);
    }
  }
  return parseZoneRecord(text);
}

function list(value: unknown): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value as string];
}

/** Compiles a rule's `rcode`, `answer`, `ns` and `extra` (JSON pointer `path` names the rule). */
export function compilePredefined(
  rule: { rcode?: unknown; answer?: unknown; ns?: unknown; extra?: unknown },
  path: string,
): Predefined {
  const section = (field: "answer" | "ns" | "extra") =>
    list(rule[field]).map((text, i) => {
      try {
        return parseRecord(text);
      } catch (e) {
        throw new ConfigError(`${path}/${field}/${i}`, `invalid record "${text}": ${errorText(e)}`);
      }
    });
  return {
    rcode: parseRcode(rule.rcode, `${path}/rcode`),
    answer: section("answer"),
    ns: section("ns"),
    extra: section("extra"),
  };
}

function forName(records: DnsRecord[], asked: string): DnsRecord[] {
  return records.map((r) => {
    if (!r.name.startsWith("*.")) return r;
    const suffix = r.name.slice(1).toLowerCase();
    return asked.endsWith(suffix) ? { ...r, name: asked } : r;
  });
}

/** The predefined response to `query` (wire form), wildcards filled with the asked name. */
export function predefinedResponse(p: Predefined, query: Uint8Array): Uint8Array {
  const asked = questionOf(query)?.name ?? "";
  return buildResponse(query, p.rcode, {
    answers: forName(p.answer, asked),
    authorities: forName(p.ns, asked),
    additionals: forName(p.extra, asked),
  });
}
