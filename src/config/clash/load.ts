/**
 * Checks a Clash/mihomo YAML configuration: YAML syntax, then conversion, then the native checks
 * on the converted document. Every problem is reported at its YAML path, line and column.
 */
import { checkValue, type JsonCheck, type Problem } from "../json/load.ts";
import { isRecord } from "./conversion.ts";
import { convertClash } from "./convert.ts";
import { readYaml, type YamlPath } from "./yaml_source.ts";

export interface ClashCheck extends JsonCheck {
  /** The native document the YAML became, when it could be read. */
  native?: Record<string, unknown>;
  /** Moves a finding about a native path (e.g. from building the engine) to the YAML it came from. */
  relocate?: (p: Problem) => Problem;
}

const pointer = (path: YamlPath) =>
  path.length ? "/" + path.map((s) => String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("/") : "";

export function checkClash(text: string): ClashCheck {
  const src = readYaml(text);
  if (src.errors.length) {
    return {
      errors: src.errors.map((e) => ({ path: "", message: e.message, line: e.line, column: e.column })),
      warnings: [],
    };
  }
  if (!isRecord(src.value)) {
    return {
      errors: [{ path: "", message: "expected a YAML mapping at the top level", line: 1, column: 1 }],
      warnings: [],
    };
  }
  const cv = convertClash(src.value);
  const at = (path: YamlPath): Problem => {
    const pos = src.position(path);
    return { path: pointer(path), message: "", line: pos?.line, column: pos?.column };
  };
  const converted: Problem[] = [], warned: Problem[] = [];
  for (const p of cv.problems) {
    (p.severity === "error" ? converted : warned).push({ ...at(p.path), message: p.message });
  }
  const native = checkValue(cv.doc, () => undefined);
  // Native findings name native paths; report them at the YAML they came from.
  const relocate = (p: Problem): Problem => {
    const segs = p.path.split("/").slice(1).map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
    const found = cv.yamlOrigin(segs);
    if (!found) return p;
    // Name the native field when the YAML only gives its container.
    const field = segs.length && !found.exact ? ` (${segs.join(".")})` : "";
    return { ...at(found.path), message: `${p.message}${field}` };
  };
  // A proxy or group that failed to convert is missing from the native document: references to
  // it are consequences of an error already reported at its own line.
  const consequence = (p: Problem) =>
    converted.length > 0 && /^unknown (outbound|outbound provider) tag /.test(p.message);
  const errors = [...converted, ...native.errors.filter((p) => !consequence(p)).map(relocate)];
  const byLine = (a: Problem, b: Problem) =>
    (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
  return {
    errors: errors.sort(byLine),
    warnings: [...warned, ...native.warnings.map(relocate)].sort(byLine),
    model: errors.length === 0 ? native.model : undefined,
    native: cv.doc,
    relocate,
  };
}
