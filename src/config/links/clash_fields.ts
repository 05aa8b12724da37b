/** Typed reads of one Clash proxy entry; a wrong type fails naming the key. */
import { LinkError } from "./types.ts";

export type Dict = Record<string, unknown>;

export class ClashEntry {
  constructor(readonly d: Dict) {}

  str(key: string): string | undefined {
    const v = this.d[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    throw new LinkError(`"${key}": expected a string`, key);
  }
  need(key: string): string {
    const v = this.str(key);
    if (v === undefined || v === "") throw new LinkError(`missing "${key}"`, key);
    return v;
  }
  bool(key: string): boolean | undefined {
    const v = this.d[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "boolean") return v;
    if (v === "true" || v === 1) return true;
    if (v === "false" || v === 0) return false;
    throw new LinkError(`"${key}": expected true or false`, key);
  }
  int(key: string, min = 0, max = 2 ** 31): number | undefined {
    const v = this.d[key];
    if (v === undefined || v === null) return undefined;
    const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new LinkError(`"${key}": expected an integer from ${min} to ${max}`, key);
    }
    return n;
  }
  port(key = "port"): number {
    const n = this.int(key, 1, 65535);
    if (n === undefined) throw new LinkError(`missing "${key}"`, key);
    return n;
  }
  list(key: string): string[] | undefined {
    const v = this.d[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string") return v.split(",").map((s) => s.trim()).filter((s) => s);
    if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) {
      return v.map(String);
    }
    throw new LinkError(`"${key}": expected a list of strings`, key);
  }
  dict(key: string): ClashEntry | undefined {
    const v = this.d[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "object" || Array.isArray(v)) throw new LinkError(`"${key}": expected a mapping`, key);
    return new ClashEntry(v as Dict);
  }
  /** A mapping of string values (headers). */
  strings(key: string): Record<string, string> | undefined {
    const sub = this.dict(key);
    if (!sub) return undefined;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(sub.d)) {
      if (typeof v === "string" || typeof v === "number") out[k] = String(v);
      else if (Array.isArray(v) && typeof v[0] === "string") out[k] = v[0];
      else throw new LinkError(`"${key}.${k}": expected a string`, key);
    }
    return out;
  }
}
