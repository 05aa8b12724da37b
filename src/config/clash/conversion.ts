/**
 * The state of one Clash → native conversion: the native document being built, where each of its
 * parts came from in the YAML (so native checks report YAML lines), and the problems found.
 */
import type { YamlPath } from "./yaml_source.ts";

export type NativePath = readonly (string | number)[];

export interface ConversionProblem {
  path: YamlPath;
  message: string;
  severity: "error" | "warning";
}

type Json = Record<string, unknown>;

export class Conversion {
  readonly doc: Json = {};
  readonly problems: ConversionProblem[] = [];
  readonly #origins = new Map<string, YamlPath>();
  /** Outbound tags in use, so generated ones never collide with the user's. */
  readonly tags = new Set<string>();

  error(path: YamlPath, message: string): void {
    this.problems.push({ path, message, severity: "error" });
  }

  warn(path: YamlPath, message: string): void {
    this.problems.push({ path, message, severity: "warning" });
  }

  /** Records that the native value at `native` was written at `yaml`. */
  origin(native: NativePath, yaml: YamlPath): void {
    this.#origins.set(native.join("/"), yaml);
  }

  /** The YAML path of a native path, through its nearest recorded ancestor. */
  yamlPathOf(native: readonly string[]): YamlPath | undefined {
    return this.yamlOrigin(native)?.path;
  }

  /** The YAML path of a native path and whether it was recorded for that exact path. */
  yamlOrigin(native: readonly string[]): { path: YamlPath; exact: boolean } | undefined {
    for (let n = native.length; n > 0; n--) {
      const found = this.#origins.get(native.slice(0, n).join("/"));
      if (found) return { path: found, exact: n === native.length };
    }
    return undefined;
  }

  /** Appends to a top-level (or nested) array of the native document and records where it came from. */
  push(where: NativePath, item: Json, yaml: YamlPath, fields: Record<string, string | number> = {}): number {
    let holder: Json = this.doc;
    for (const seg of where.slice(0, -1)) {
      holder = (holder[seg] ??= {}) as Json;
    }
    const key = where[where.length - 1];
    const list = (holder[key] ??= []) as unknown[];
    const index = list.push(item) - 1;
    const path = [...where, index];
    this.origin(path, yaml);
    for (const [nativeField, yamlField] of Object.entries(fields)) {
      this.origin([...path, nativeField], [...yaml, yamlField]);
    }
    return index;
  }

  /** Sets an object field of the native document (creating parents) and records its origin. */
  set(where: NativePath, value: unknown, yaml?: YamlPath): void {
    let holder: Json = this.doc;
    for (const seg of where.slice(0, -1)) holder = (holder[seg] ??= {}) as Json;
    holder[where[where.length - 1]] = value;
    if (yaml) this.origin(where, yaml);
  }

  get(where: NativePath): unknown {
    let v: unknown = this.doc;
    for (const seg of where) {
      if (typeof v !== "object" || v === null) return undefined;
      v = (v as Json)[seg as string];
    }
    return v;
  }

  readonly inboundTags = new Set<string>();

  uniqueInboundTag(wanted: string): string {
    let tag = wanted;
    for (let n = 2; this.inboundTags.has(tag); n++) tag = `${wanted}-${n}`;
    this.inboundTags.add(tag);
    return tag;
  }

  /** A tag not used yet, from `wanted` (with a numeric suffix when taken). */
  uniqueTag(wanted: string): string {
    let tag = wanted;
    for (let n = 2; this.tags.has(tag); n++) tag = `${wanted}-${n}`;
    this.tags.add(tag);
    return tag;
  }
}

/** Small readers over untrusted YAML values. */
export const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const asString = (v: unknown): string | undefined =>
  typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
export const asBool = (v: unknown): boolean | undefined =>
  typeof v === "boolean" ? v : v === "true" ? true : v === "false" ? false : undefined;
export const asInt = (v: unknown): number | undefined => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) ? n : undefined;
};
export const asList = (
  v: unknown,
): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
