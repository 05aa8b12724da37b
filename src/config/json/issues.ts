/**
 * Turns zod issues into configuration errors with a JSON pointer and a human message: unknown
 * fields one by one with a "did you mean", unions reported from the branch the value was
 * meant for, and zod's codes rephrased.
 */
import type { z } from "zod";
import { dnsActionShape } from "../model/dns_rule.ts";
import { ROUTE_ACTION_FIELD_NAMES } from "../model/route_rule.ts";
import { type PathSegment, toPointer, valueAt } from "./pointer.ts";
import { fieldsAt } from "./schema_walk.ts";
import { closest } from "./suggest.ts";

export interface Located {
  path: PathSegment[];
  message: string;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  record: "an object",
  null: "null",
  bigint: "an integer",
};

/** A value quoted for a message. */
export function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 60 ? v.slice(0, 57) + "..." : v);
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return String(v);
}

const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

/** Per-parse zod error map: messages for zod's own issue codes (schema messages take precedence). */
export function humanMessage(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.input === undefined && iss.code !== "unrecognized_keys" && iss.code !== "custom") {
    return "missing required field";
  }
  switch (iss.code) {
    case "invalid_type": {
      if (iss.input === undefined) return "missing required field";
      const expected = EXPECTED[iss.expected] ?? String(iss.expected);
      if (iss.expected === "int" && typeof iss.input === "number") {
        return `expected an integer, got ${show(iss.input)}`;
      }
      return `expected ${expected}, got ${show(iss.input)}`;
    }
    case "invalid_value": {
      const values = iss.values.filter((v) => v !== undefined);
      if (values.length === 1) return `expected ${JSON.stringify(values[0])}, got ${show(iss.input)}`;
      const hint = typeof iss.input === "string"
        ? closest(iss.input, values.filter((v): v is string => typeof v === "string"))
        : undefined;
      return `invalid value ${show(iss.input)}: expected one of ${list(values)}` +
        (hint ? ` (did you mean "${hint}"?)` : "");
    }
    case "too_small": {
      const min = Number(iss.minimum);
      if (iss.origin === "array") return `needs at least ${min} item${min === 1 ? "" : "s"}`;
      if (iss.origin === "string") {
        return min === 1 ? "must not be empty" : `must be at least ${min} characters long`;
      }
      return iss.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
    }
    case "too_big": {
      const max = Number(iss.maximum);
      if (iss.origin === "array") return `holds at most ${max} items`;
      if (iss.origin === "string") return `must be at most ${max} characters long`;
      return iss.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case "invalid_format":
      return `invalid ${iss.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${iss.divisor}`;
    case "unrecognized_keys":
      return "unknown field";
    case "invalid_key":
      return "invalid key";
    case "invalid_element":
      return "invalid element";
    case "invalid_union":
      return "invalid value";
    default:
      return undefined;
  }
}

/** Flattens one issue into located messages. */
export function locate(
  issue: z.core.$ZodIssue,
  root: z.core.$ZodType,
  doc: unknown,
  base: PathSegment[] = [],
): Located[] {
  const path = [...base, ...issue.path] as PathSegment[];
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => ({ path: [...path, key], message: unknownField(root, doc, path, key) }));
    case "invalid_union":
      return union(issue, root, doc, path);
    default:
      return [{ path, message: issue.message }];
  }
}

function unknownField(root: z.core.$ZodType, doc: unknown, path: PathSegment[], key: string): string {
  const where = toPointer(path);
  const actionField = key in dnsActionShape || ROUTE_ACTION_FIELD_NAMES.includes(key);
  if (/\/rules\/\d+\/rules\/\d+$/.test(where) && actionField) {
    return "unknown field (action fields belong on the outer logical rule; nested rules hold conditions only)";
  }
  const fields = fieldsAt(root, doc, path.map(String));
  const hint = fields ? closest(key, fields) : undefined;
  return hint ? `unknown field (did you mean "${hint}"?)` : "unknown field";
}

function union(
  issue: z.core.$ZodIssueInvalidUnion,
  root: z.core.$ZodType,
  doc: unknown,
  path: PathSegment[],
) {
  const raw = issue as z.core.$ZodIssueInvalidUnion & { discriminator?: string; options?: unknown[] };
  if (raw.discriminator) {
    // The path ends at the discriminator field; the item is its parent.
    const given = valueAt(doc, path);
    const options = (raw.options ?? []).filter((o) => o !== null && o !== undefined);
    if (given === undefined) return [{ path, message: "missing required field" }];
    if (typeof given !== "string") return [{ path, message: `expected a string, got ${show(given)}` }];
    const hint = closest(given, options.filter((o): o is string => typeof o === "string"));
    return [{
      path,
      message: `invalid value ${show(given)}: expected one of ${list(options)}` +
        (hint ? ` (did you mean "${hint}"?)` : ""),
    }];
  }
  // Report the branch that got furthest into the value; a plain type mismatch keeps the union's message.
  // A value of the right type but wrong content (an enum miss) counts as half a level deeper;
  // when branches tie, none is clearly meant and the union's own message is clearer.
  let best: z.core.$ZodIssue[] | undefined;
  let bestDepth = 0;
  let tie = false;
  for (const branch of issue.errors) {
    const depth = Math.max(0, ...branch.map((i) => i.path.length + (i.code === "invalid_type" ? 0 : 0.5)));
    if (depth > bestDepth) {
      best = branch;
      bestDepth = depth;
      tie = false;
    } else if (depth === bestDepth && depth > 0) {
      tie = true;
    }
  }
  if (tie) return [{ path, message: issue.message }];
  if (!best) return [{ path, message: issue.message }];
  return best.flatMap((i) => locate(i, root, doc, path));
}
