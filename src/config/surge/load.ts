/**
 * Checks a Surge-style profile: reading, conversion, then the native checks on the converted
 * document. Every problem is reported at its `.conf` line; a problem in an included file names
 * that file and its line, at the line of the profile that included it.
 */
import { checkValue, type Problem } from "../json/load.ts";
import type { ClashCheck } from "../clash/load.ts";
import { convertSurge } from "./convert.ts";
import type { Loc, ReadFile } from "./source.ts";

export type SurgeCheck = ClashCheck;

/** A finding's path: the section, and the included file and its line when not in the profile. */
const where = (loc: Loc) => `${loc.file ? `${loc.file}:${loc.line} ` : ""}[${loc.section || "profile"}]`;

export function checkSurge(text: string, read: ReadFile): SurgeCheck {
  const cv = convertSurge(text, read);
  const at = (loc: Loc | undefined, message: string): Problem =>
    loc ? { path: where(loc), message, line: loc.top } : { path: "", message };
  const converted: Problem[] = [], warned: Problem[] = [];
  for (const p of cv.problems) {
    (p.severity === "error" ? converted : warned).push(at(cv.locOf(p.path), p.message));
  }
  const native = checkValue(cv.doc, () => undefined);
  const relocate = (p: Problem): Problem => {
    const segs = p.path.split("/").slice(1).map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
    const src = cv.yamlPathOf(segs);
    const loc = src && cv.locOf(src);
    if (!loc) return p;
    return at(loc, `${p.message}${segs.length ? ` (${segs.join(".")})` : ""}`);
  };
  // A proxy or group that failed to convert is missing: references to it follow from that error.
  const consequence = (p: Problem) => converted.length > 0 && /^unknown outbound tag /.test(p.message);
  const errors = [...converted, ...native.errors.filter((p) => !consequence(p)).map(relocate)];
  const byLine = (a: Problem, b: Problem) => (a.line ?? 0) - (b.line ?? 0);
  return {
    errors: errors.sort(byLine),
    warnings: [...warned, ...native.warnings.map(relocate)].sort(byLine),
    model: errors.length === 0 ? native.model : undefined,
    native: cv.doc,
    relocate,
  };
}
