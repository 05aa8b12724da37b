/**
 * A DNS response as response-match conditions read it: rcode, answer addresses, and records of
 * each section reduced to comparable keys (name, type, class, data; TTL ignored). Lazy.
 */
import { Buffer } from "node:buffer";
import { ConfigError, errorText } from "../common/errors.ts";
import { canonicalIp } from "../common/ip.ts";
import { answerAddresses, decodeMessage, type DnsRecord, rcodeOf } from "./message.ts";
import { parseZoneRecord } from "./predefined.ts";

export type Section = "answer" | "ns" | "extra";

function normName(n: unknown): unknown {
  return typeof n === "string" ? n.toLowerCase().replace(/\.$/, "") : n;
}

function normData(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (Array.isArray(value)) return value.map(normData);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      out[k] = normName(normData((value as Record<string, unknown>)[k]));
    }
    return out;
  }
  return normName(value);
}

/** A record's comparison key. */
export function recordKey(r: DnsRecord): string {
  let data = r.data;
  if (r.type === "TXT" && !Array.isArray(data)) data = [data];
  if ((r.type === "A" || r.type === "AAAA") && typeof data === "string") data = canonicalIp(data) ?? data;
  return JSON.stringify([normName(r.name), r.type, r.class ?? "IN", normData(data)]);
}

export class ResponseView {
  readonly rcode: number;
  #addresses?: string[];
  #keys?: Record<Section, Set<string>>;

  constructor(readonly wire: Uint8Array) {
    this.rcode = rcodeOf(wire);
  }

  get addresses(): string[] {
    return this.#addresses ??= answerAddresses(this.wire);
  }

  recordKeys(section: Section): Set<string> {
    if (!this.#keys) {
      const m = decodeMessage(this.wire);
      const keys = (rs: DnsRecord[] | undefined) =>
        new Set((rs ?? []).filter((r) => r.type !== "OPT").map(recordKey));
      this.#keys = { answer: keys(m.answers), ns: keys(m.authorities), extra: keys(m.additionals) };
    }
    return this.#keys[section];
  }

  /** Keys of records written in zone-file form in a rule field; ConfigError naming the item. */
  static compileRecords(value: unknown, path: string): string[] {
    const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
    return list.map((text, i) => {
      try {
        return recordKey(parseZoneRecord(String(text)));
      } catch (e) {
        throw new ConfigError(`${path}/${i}`, `invalid record "${text}": ${errorText(e)}`);
      }
    });
  }
}
