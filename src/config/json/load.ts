/**
 * The native JSON(C) loader: parse, apply the reference-field table, validate against the model
 * schema, then check cross-references. Every problem found is reported, each with its path.
 */
import type { z } from "zod";
import { Top } from "../model/top.ts";
import type { Model } from "../model/top.ts";
import { validateModel } from "../validate.ts";
import { humanMessage, locate } from "./issues.ts";
import { lineOf, type ParsedJson, parseJsonc } from "./parse.ts";
import { fromPointer, isUnder, toPointer } from "./pointer.ts";
import { isObject, prepass } from "./prepass.ts";

export interface Problem {
  path: string;
  message: string;
  line?: number;
  /** 1-based column, where the source format gives one (YAML). */
  column?: number;
}

/** Where a JSON pointer's value was written in the source text (nearest ancestor when not exact). */
export type Locate = (path: readonly string[]) => { line: number; column?: number } | undefined;

export interface JsonCheck {
  errors: Problem[];
  warnings: Problem[];
  model?: Model;
  /** Adds the source position to a finding made later about a path of this document. */
  relocate?: (p: Problem) => Problem;
}

export function checkJson(text: string): JsonCheck {
  const parsed = parseJsonc(text);
  if (parsed.errors.length > 0) return { errors: parsed.errors, warnings: [] };
  if (!isObject(parsed.value)) {
    return {
      errors: [{ path: "", message: "expected a JSON object at the top level", line: 1 }],
      warnings: [],
    };
  }
  return checkValue(parsed.value, (path) => {
    const line = lineOf(parsed as ParsedJson, path);
    return line === undefined ? undefined : { line };
  });
}

/**
 * Checks a document in the native format's shape, however it was written (JSON, or converted from
 * another format); `locate` maps paths back to the source text for messages.
 */
export function checkValue(value: Record<string, unknown>, where: Locate): JsonCheck {
  const pre = prepass(value);
  const errors: Problem[] = [...pre.errors];
  const warnings: Problem[] = [...pre.warnings];

  const result = Top.safeParse(pre.value, { error: humanMessage });
  let model: Model | undefined;
  if (result.success) {
    model = result.data;
    const checked = validateModel(model, { compatApiPath: compatApiPath(value) });
    // An item whose field was refused already has its error; what follows from the removal is noise.
    errors.push(...checked.errors.filter((e) => !pre.errors.some((p) => isUnder(p.path, e.path))));
    warnings.push(...checked.warnings);
  } else {
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      for (const found of locate(issue, Top as unknown as z.core.$ZodType, pre.value)) {
        const path = toPointer(found.path);
        if (pre.skip.some((p) => isUnder(path, p))) continue;
        const key = `${path}\u0000${found.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        errors.push({ path, message: found.message });
      }
    }
  }
  const withLines = (p: Problem): Problem => {
    if (p.line !== undefined) return p;
    const at = where(fromPointer(p.path));
    return at ? { ...p, line: at.line, column: at.column } : p;
  };
  return {
    errors: sortByLine(errors.map(withLines)),
    warnings: warnings.map(withLines),
    model: errors.length === 0 ? model : undefined,
    relocate: withLines,
  };
}

/** Errors in document order, so a long list reads top to bottom. */
function sortByLine(list: Problem[]): Problem[] {
  return list.map((p, i) => ({ p, i }))
    .sort((a, b) => (a.p.line ?? 0) - (b.p.line ?? 0) || a.i - b.i)
    .map(({ p }) => p);
}

function compatApiPath(doc: Record<string, unknown>): string[] {
  if (doc.compat_api !== undefined) return ["compat_api"];
  const exp = doc.experimental;
  if (isObject(exp) && exp.compat_api !== undefined) return ["experimental", "compat_api"];
  if (isObject(exp) && exp.clash_api !== undefined) return ["experimental", "clash_api"];
  return ["compat_api"];
}
