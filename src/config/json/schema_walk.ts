/**
 * Finds the object schema that describes a path of a document, to list the fields it accepts
 * (for "did you mean" hints). Reads zod 4 definitions; unions are resolved by the document value.
 */
import type { z } from "zod";
import { valueAt } from "./pointer.ts";

// deno-lint-ignore no-explicit-any
type Def = any;

function defOf(schema: z.core.$ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** Strips wrappers (optional, default, pipe, lazy…) down to the schema that checks the value. */
function unwrap(schema: z.core.$ZodType, value: unknown, depth = 0): z.core.$ZodType | undefined {
  if (depth > 50) return undefined;
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return unwrap(def.innerType, value, depth + 1);
    case "pipe":
      return unwrap(def.in, value, depth + 1);
    case "lazy":
      return unwrap(def.getter(), value, depth + 1);
    case "union": {
      for (const option of def.options as z.core.$ZodType[]) {
        const inner = unwrap(option, value, depth + 1);
        if (inner && accepts(inner, value, def.discriminator)) return inner;
      }
      return undefined;
    }
    default:
      return schema;
  }
}

/** Whether an unwrapped schema is the union option for a value. */
function accepts(schema: z.core.$ZodType, value: unknown, discriminator?: string): boolean {
  const def = defOf(schema);
  if (def.type === "object") {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
    if (!discriminator) return true;
    const disc = def.shape[discriminator];
    const values: Set<unknown> | undefined = disc?._zod?.values;
    const given = (value as Record<string, unknown>)[discriminator];
    return values ? values.has(given) : true;
  }
  if (def.type === "array") return Array.isArray(value);
  return value === null || typeof value !== "object";
}

/** Fields accepted by the object at `path`, or undefined when the path does not lead to one. */
export function fieldsAt(root: z.core.$ZodType, doc: unknown, path: readonly string[]): string[] | undefined {
  let schema: z.core.$ZodType | undefined = root;
  for (let i = 0; i <= path.length && schema; i++) {
    const value = valueAt(doc, path.slice(0, i));
    schema = unwrap(schema, value);
    if (!schema) return undefined;
    if (i === path.length) break;
    const def = defOf(schema);
    const seg = path[i];
    if (def.type === "object") schema = def.shape[seg];
    else if (def.type === "array") schema = def.element;
    else if (def.type === "record") schema = def.valueType;
    else return undefined;
  }
  if (!schema) return undefined;
  const def = defOf(schema);
  return def.type === "object" ? Object.keys(def.shape) : undefined;
}
