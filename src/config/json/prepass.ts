/**
 * Checks applied to the parsed JSON before schema validation: item `type` values (one error for a
 * type that is not implemented, nothing about its other fields) and the reference-field table.
 * Works on a copy, from which it deletes the fields it has dealt with.
 */
import {
  DNS_SERVER_TYPES,
  ENDPOINT_TYPES,
  INBOUND_TYPES,
  type ItemKind,
  type KindTypes,
  OUTBOUND_TYPES,
  typeProblem,
} from "../model/kinds.ts";
import { fromPointer, isUnder, type PathSegment, toPointer } from "./pointer.ts";
import { REFERENCE_FIELDS, referenceMessage } from "./reference_fields.ts";

export interface Finding {
  path: string;
  message: string;
}

export interface PrepassResult {
  value: Record<string, unknown>;
  errors: Finding[];
  warnings: Finding[];
  /** Items already reported: schema issues under these paths are not reported again. */
  skip: string[];
}

const SERVICE_TYPES: KindTypes = { described: [], pending: [], refused: {} };

const ITEM_ARRAYS: readonly { pattern: string; kind: ItemKind; types: KindTypes }[] = [
  { pattern: "/inbounds/*", kind: "inbound", types: INBOUND_TYPES },
  { pattern: "/outbounds/*", kind: "outbound", types: OUTBOUND_TYPES },
  { pattern: "/outbound_providers/*/outbounds/*", kind: "outbound", types: OUTBOUND_TYPES },
  { pattern: "/endpoints/*", kind: "endpoint", types: ENDPOINT_TYPES },
  { pattern: "/dns/servers/*", kind: "dns server", types: DNS_SERVER_TYPES },
  { pattern: "/services/*", kind: "service", types: SERVICE_TYPES },
];

export function prepass(input: Record<string, unknown>): PrepassResult {
  const value = structuredClone(input);
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const skip: string[] = [];
  const skipped = (path: string) => skip.some((p) => isUnder(path, p));

  for (const { pattern, kind, types } of ITEM_ARRAYS) {
    for (const path of matchPaths(value, pattern)) {
      const item = valueAtPath(value, path);
      if (!isObject(item) || typeof item.type !== "string") continue;
      if (kind === "service" && item.type === "api") continue; // the table warns about it
      const problem = kind === "service"
        ? `service type "${item.type}" is not supported`
        : typeProblem(kind, types, item.type);
      if (problem) {
        errors.push({ path: toPointer([...path, "type"]), message: problem });
        skip.push(toPointer(path));
      }
    }
  }

  for (const entry of REFERENCE_FIELDS) {
    for (const pattern of entry.paths) {
      for (const path of matchPaths(value, pattern)) {
        const pointer = toPointer(path);
        if (skipped(pointer)) continue;
        const itemLevel = pattern.endsWith("/*");
        const holder = itemLevel ? valueAtPath(value, path) : valueAtPath(value, path.slice(0, -1));
        if (!isObject(holder)) continue;
        if (entry.types && !entry.types.includes(holder.type as string)) continue;
        if (entry.when && !entry.when(valueAtPath(value, path))) continue;
        (entry.decision === "warn" ? warnings : errors).push({
          path: pointer,
          message: referenceMessage(entry),
        });
        if (itemLevel) skip.push(pointer);
        else {
          delete holder[String(path[path.length - 1])];
          if (entry.refusesItem) skip.push(toPointer(path.slice(0, -1)));
        }
      }
    }
  }

  compatApiOnce(value, errors);
  // Services never reach the model: `api` items are dropped, others were refused above.
  delete value.services;
  return { value, errors, warnings, skip };
}

/** Concrete paths in `root` matching a pattern (`*` one level, `**` any number of levels). */
export function matchPaths(root: unknown, pattern: string): PathSegment[][] {
  const segs = fromPointer(pattern);
  const out = new Map<string, PathSegment[]>();
  const walk = (v: unknown, i: number, path: PathSegment[]) => {
    if (i === segs.length) {
      out.set(toPointer(path), path);
      return;
    }
    const seg = segs[i];
    if (seg === "**") {
      walk(v, i + 1, path);
      for (const [k, child] of children(v)) walk(child, i, [...path, k]);
    } else if (seg === "*") {
      for (const [k, child] of children(v)) walk(child, i + 1, [...path, k]);
    } else if (isObject(v) && Object.hasOwn(v, seg)) {
      walk(v[seg], i + 1, [...path, seg]);
    }
  };
  walk(root, 0, []);
  return [...out.values()];
}

function children(v: unknown): [PathSegment, unknown][] {
  if (Array.isArray(v)) return v.map((c, i) => [i, c]);
  if (isObject(v)) return Object.entries(v);
  return [];
}

function valueAtPath(root: unknown, path: readonly PathSegment[]): unknown {
  let v = root;
  for (const seg of path) {
    if (Array.isArray(v)) v = v[seg as number];
    else if (isObject(v)) v = v[String(seg)];
    else return undefined;
  }
  return v;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Validation rule 8: the compat API object is written once, at one of its three places. */
function compatApiOnce(value: Record<string, unknown>, errors: Finding[]): void {
  const exp = isObject(value.experimental) ? value.experimental : undefined;
  const places = [
    value.compat_api !== undefined && "/compat_api",
    exp?.compat_api !== undefined && "/experimental/compat_api",
    exp?.clash_api !== undefined && "/experimental/clash_api",
  ].filter((p): p is string => typeof p === "string");
  for (const place of places.slice(1)) {
    errors.push({ path: place, message: `the compat API is already given at "${places[0]}": keep one` });
    delete exp![place.slice("/experimental/".length)];
  }
}
