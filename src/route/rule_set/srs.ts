/**
 * sing-box's binary rule-set (.srs), read and written byte-compatibly (sing-box common/srs):
 * "SRS", a version byte, then a zlib stream holding a uvarint rule count and the rules. A default
 * rule is 0x00, items (a type byte and its value), 0xff and an invert byte; a logical rule is
 * 0x01, mode (0 and, 1 or), a uvarint count of rules, the rules and an invert byte. Lists are a
 * uvarint count then the values (strings: uvarint length and bytes; uint16: big-endian).
 */
import { deflateSync, inflateSync } from "node:zlib";
import { ProtocolError } from "../../common/errors.ts";
import { Cursor, Writer } from "./cursor.ts";
import { fromBytes, prefixesToRanges, rangeToPrefixes, toBytes } from "./ip_ranges.ts";
import { buildSuccinct, PREFIX_LABEL, ROOT_LABEL, succinctKeys } from "./succinct.ts";
import type { PlainRule, PlainRuleSet } from "./types.ts";

export const SRS_MAGIC = [0x53, 0x52, 0x53];
/** Newest rule-set version we read (sing-box 1.13 writes 4 at most for these items). */
export const SRS_MAX_VERSION = 4;
/** Decompressed size cap: a hostile file must not exhaust memory. */
const MAX_INFLATED = 512 * 1024 * 1024;

const STRING_ITEMS: Record<number, keyof PlainRule> = {
  1: "network",
  3: "domain_keyword",
  4: "domain_regex",
  8: "source_port_range",
  10: "port_range",
  11: "process_name",
  12: "process_path",
  13: "package_name",
  14: "wifi_ssid",
  15: "wifi_bssid",
  17: "process_path_regex",
};
const UINT16_ITEMS: Record<number, keyof PlainRule> = { 0: "query_type", 7: "source_port", 9: "port" };
const CIDR_ITEMS: Record<number, keyof PlainRule> = { 5: "source_ip_cidr", 6: "ip_cidr" };
const NETWORK_TYPES = ["wifi", "cellular", "ethernet", "other"];
const ITEM_DOMAIN = 2, ITEM_ADGUARD = 16, ITEM_NETWORK_TYPE = 18, ITEM_EXPENSIVE = 19, ITEM_CONSTRAINED = 20;
const ITEM_FINAL = 0xff;

const utf8 = new TextDecoder("utf-8", { fatal: false });
const latin1 = new TextDecoder("latin1");

function readStrings(c: Cursor): string[] {
  const n = c.count(1);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = utf8.decode(c.take(c.uvarint()));
  return out;
}

function readUint64Words(c: Cursor): Uint32Array {
  const n = c.count(8);
  const out = new Uint32Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2 + 1] = c.uint32();
    out[i * 2] = c.uint32();
  }
  return out;
}

/** The domain item: trie keys back to `domain` and `domain_suffix` lists. */
function readDomains(c: Cursor, rule: PlainRule): void {
  c.byte(); // trie version
  const leaves = readUint64Words(c);
  const bitmap = readUint64Words(c);
  const labels = c.take(c.count(1));
  const domain: string[] = [], suffix: string[] = [];
  for (const raw of succinctKeys(leaves, bitmap, labels)) {
    // Keys are domains reversed rune by rune (each rune's UTF-8 bytes kept in order).
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const last = bytes[bytes.length - 1];
    const name = [...utf8.decode(bytes)].reverse().join("");
    if (last === PREFIX_LABEL || last === ROOT_LABEL) suffix.push(name.slice(1));
    else domain.push(name);
  }
  if (domain.length) rule.domain = domain;
  if (suffix.length) rule.domain_suffix = suffix;
}

function readIpSet(c: Cursor): string[] {
  if (c.byte() !== 1) throw new ProtocolError("unknown IP set version");
  const hi = c.uint32(), lo = c.uint32();
  const n = hi * 2 ** 32 + lo;
  if (n * 4 > c.bytes.length - c.pos) throw new ProtocolError(`IP set count ${n} exceeds the data`);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const from = c.take(c.uvarint()), to = c.take(c.uvarint());
    out.push(...rangeToPrefixes(fromBytes(from, to)));
  }
  return out;
}

function readDefault(c: Cursor): PlainRule {
  const rule: PlainRule = {};
  const r = rule as Record<string, unknown>;
  for (;;) {
    const item = c.byte();
    if (item === ITEM_FINAL) {
      if (c.byte()) rule.invert = true;
      return rule;
    }
    if (item in STRING_ITEMS) r[STRING_ITEMS[item]] = readStrings(c);
    else if (item in UINT16_ITEMS) {
      const n = c.count(2);
      const list: number[] = [];
      for (let i = 0; i < n; i++) list.push(c.uint16());
      r[UINT16_ITEMS[item]] = list;
    } else if (item in CIDR_ITEMS) r[CIDR_ITEMS[item]] = readIpSet(c);
    else if (item === ITEM_DOMAIN) readDomains(c, rule);
    else if (item === ITEM_NETWORK_TYPE) {
      rule.network_type = [...c.take(c.count(1))].map((t) => NETWORK_TYPES[t] ?? String(t));
    } else if (item === ITEM_EXPENSIVE) rule.network_is_expensive = true;
    else if (item === ITEM_CONSTRAINED) rule.network_is_constrained = true;
    else if (item === ITEM_ADGUARD) throw new ProtocolError("AdGuard domain items are not supported");
    else throw new ProtocolError(`unknown rule item type ${item}`);
  }
}

function readRule(c: Cursor, depth: number): PlainRule {
  if (depth > 32) throw new ProtocolError("logical rules nested too deep");
  const type = c.byte();
  if (type === 0) return readDefault(c);
  if (type !== 1) throw new ProtocolError(`unknown rule type ${type}`);
  const mode = c.byte();
  if (mode > 1) throw new ProtocolError(`unknown logical mode ${mode}`);
  const n = c.count(2);
  const rules: PlainRule[] = [];
  for (let i = 0; i < n; i++) rules.push(readRule(c, depth + 1));
  const invert = c.byte() !== 0;
  return { type: "logical", mode: mode === 0 ? "and" : "or", rules, ...(invert ? { invert } : {}) };
}

/** Decodes a .srs file; throws ProtocolError on anything malformed. */
export function readSrs(file: Uint8Array): PlainRuleSet {
  if (file.length < 4 || file[0] !== SRS_MAGIC[0] || file[1] !== SRS_MAGIC[1] || file[2] !== SRS_MAGIC[2]) {
    throw new ProtocolError("not a sing-box rule-set file: bad magic");
  }
  const version = file[3];
  if (version < 1 || version > SRS_MAX_VERSION) {
    throw new ProtocolError(`unsupported rule-set version ${version}`);
  }
  let body: Uint8Array;
  try {
    body = inflateSync(file.subarray(4), { maxOutputLength: MAX_INFLATED });
  } catch (e) {
    throw new ProtocolError(`bad compressed rule-set body: ${(e as Error).message}`);
  }
  const c = new Cursor(body);
  const n = c.count(2);
  const rules: PlainRule[] = [];
  for (let i = 0; i < n; i++) {
    try {
      rules.push(readRule(c, 0));
    } catch (e) {
      throw new ProtocolError(`rule ${i}: ${(e as Error).message}`);
    }
  }
  return { version, rules };
}

function writeStrings(w: Writer, list: readonly string[]): void {
  const enc = new TextEncoder();
  w.uvarint(list.length);
  for (const s of list) {
    const b = enc.encode(s);
    w.uvarint(b.length);
    w.bytes(b);
  }
}

function writeWords(w: Writer, words: number[]): void {
  const n = Math.ceil(words.length / 2);
  w.uvarint(n);
  for (let i = 0; i < n; i++) {
    w.uint32(words[i * 2 + 1] ?? 0);
    w.uint32(words[i * 2] ?? 0);
  }
}

/** Reversed UTF-8 bytes of a domain (rune order reversed, each rune's bytes kept) as a byte string. */
function reversedKey(domain: string, label?: number): string {
  const runes = [...domain].reverse().join("");
  const bytes = new TextEncoder().encode(runes);
  return latin1.decode(bytes) + (label === undefined ? "" : String.fromCharCode(label));
}

function writeDomains(
  w: Writer,
  domains: readonly string[],
  suffixes: readonly string[],
  legacy: boolean,
): void {
  const keys = new Set<string>();
  for (const s of suffixes) {
    if (s.startsWith(".")) keys.add(reversedKey(s, PREFIX_LABEL));
    else if (legacy) {
      keys.add(reversedKey(s));
      keys.add(reversedKey("." + s, PREFIX_LABEL));
    } else keys.add(reversedKey(s, ROOT_LABEL));
  }
  for (const d of domains) keys.add(reversedKey(d));
  const sorted = [...keys].sort();
  const trie = buildSuccinct(sorted);
  w.byte(ITEM_DOMAIN);
  w.byte(0);
  writeWords(w, trie.leaves);
  writeWords(w, trie.labelBitmap);
  w.uvarint(trie.labels.length);
  w.bytes(trie.labels);
}

function writeDefault(w: Writer, rule: PlainRule, version: number): void {
  const r = rule as Record<string, unknown>;
  w.byte(0);
  const list = (f: string) => (r[f] === undefined ? [] : Array.isArray(r[f]) ? r[f] as unknown[] : [r[f]]);
  const item = (code: number, field: string) => {
    const v = list(field);
    if (!v.length) return;
    w.byte(code);
    if (code in UINT16_ITEMS) {
      w.uvarint(v.length);
      for (const n of v) w.uint16(Number(n));
    } else if (code in CIDR_ITEMS) {
      const ranges = prefixesToRanges(v as string[]);
      w.byte(1);
      w.uint32(0);
      w.uint32(ranges.length);
      for (const rg of ranges) {
        w.uvarint(rg.size);
        w.bytes(toBytes(rg.from, rg.size));
        w.uvarint(rg.size);
        w.bytes(toBytes(rg.to, rg.size));
      }
    } else writeStrings(w, v as string[]);
  };
  item(0, "query_type");
  item(1, "network");
  if (list("domain").length || list("domain_suffix").length) {
    writeDomains(w, list("domain") as string[], list("domain_suffix") as string[], version === 1);
  }
  for (const code of [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 17, 13]) {
    item(code, (STRING_ITEMS[code] ?? UINT16_ITEMS[code] ?? CIDR_ITEMS[code]) as string);
  }
  const nt = list("network_type");
  if (nt.length) {
    if (version < 3) throw new ProtocolError("network_type needs rule-set version 3 or later");
    w.byte(ITEM_NETWORK_TYPE);
    w.uvarint(nt.length);
    for (const t of nt) w.byte(NETWORK_TYPES.indexOf(String(t)));
  }
  if (rule.network_is_expensive) w.byte(ITEM_EXPENSIVE);
  if (rule.network_is_constrained) w.byte(ITEM_CONSTRAINED);
  item(14, "wifi_ssid");
  item(15, "wifi_bssid");
  w.byte(ITEM_FINAL);
  w.byte(rule.invert ? 1 : 0);
}

function writeRule(w: Writer, rule: PlainRule, version: number): void {
  if (rule.type !== "logical") return writeDefault(w, rule, version);
  w.byte(1);
  w.byte(rule.mode === "or" ? 1 : 0);
  w.uvarint(rule.rules?.length ?? 0);
  for (const sub of rule.rules ?? []) writeRule(w, sub, version);
  w.byte(rule.invert ? 1 : 0);
}

/** Encodes rules as a .srs file of `version` (sing-box's `rule-set compile`). */
export function writeSrs(set: PlainRuleSet): Uint8Array {
  const w = new Writer();
  w.uvarint(set.rules.length);
  for (const rule of set.rules) writeRule(w, rule, set.version);
  const body = deflateSync(w.done(), { level: 9 });
  const out = new Uint8Array(4 + body.length);
  out.set(SRS_MAGIC);
  out[3] = set.version;
  out.set(body, 4);
  return out;
}
