/** JSON pointers (RFC 6901) for configuration paths. */

export type PathSegment = string | number;

/** `["route", "rules", 3, "outbound"]` → `/route/rules/3/outbound`. */
export function toPointer(path: readonly PathSegment[]): string {
  return path.map((s) => "/" + String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/** `/route/rules/3/outbound` → `["route", "rules", "3", "outbound"]` (indices stay strings). */
export function fromPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at a path inside a parsed JSON document, or undefined. */
export function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (Array.isArray(v)) {
      const i = typeof seg === "number" ? seg : /^\d+$/.test(seg) ? Number(seg) : NaN;
      v = v[i];
    } else if (v !== null && typeof v === "object") {
      v = Object.hasOwn(v, String(seg)) ? (v as Record<string, unknown>)[String(seg)] : undefined;
    } else {
      return undefined;
    }
  }
  return v;
}

/** True when `path` is `prefix` or below it. */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + "/");
}
