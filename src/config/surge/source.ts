/**
 * Reads a Surge-style profile into sections of lines, each line knowing where it was written:
 * comments (`#`, `;`, `//`) dropped, `#!include` expanded from files beside the profile, and the
 * older profile format (Surge 2) recognised so it fails with an error that says so.
 */

/** Where a line was written: its file ("" is the profile) and line, and the profile line it is at. */
export interface Loc {
  file: string;
  line: number;
  /** The line of the profile itself (the `#!include` line for an included file). */
  top: number;
  section: string;
}

export interface Line {
  text: string;
  loc: Loc;
}

export interface SourceProblem {
  loc: Loc;
  message: string;
  severity: "error" | "warning";
}

/** Reads a file named in the profile (relative to the profile's directory); throws when missing. */
export type ReadFile = (name: string) => string;

export interface Profile {
  /** Section name as written (without brackets) → its lines, in order; includes merged in. */
  sections: Map<string, Line[]>;
  /** Where each section header was written. */
  headers: Map<string, Loc>;
  problems: SourceProblem[];
}

const MAX_INCLUDE_DEPTH = 8;
const OLD_FORMAT = "the older profile format (Surge 2) is not supported: rewrite it in the current format";

const isComment = (t: string) => t.startsWith("#") || t.startsWith(";") || t.startsWith("//");

export function readProfile(text: string, read: ReadFile): Profile {
  const profile: Profile = { sections: new Map(), headers: new Map(), problems: [] };
  readInto(profile, text, "", read, undefined, 0, undefined);
  return profile;
}

/**
 * Adds a file's lines. For an included file, `only` is the section it was included in: a file
 * with section headers contributes that section's lines, a file without headers all its lines.
 */
function readInto(
  p: Profile,
  text: string,
  file: string,
  read: ReadFile,
  top: number | undefined,
  depth: number,
  only: string | undefined,
): void {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n|\r/);
  const hasHeaders = lines.some((l) => /^\s*\[[^\]]+\]\s*$/.test(l));
  let section = only !== undefined && !hasHeaders ? only : "";
  lines.forEach((raw, i) => {
    const t = raw.trim();
    const loc: Loc = { file, line: i + 1, top: top ?? i + 1, section };
    if (!t) return;
    const header = /^\[([^\]]+)\]$/.exec(t);
    if (header) {
      section = header[1].trim();
      if (only === undefined && !p.headers.has(section)) p.headers.set(section, { ...loc, section });
      return;
    }
    if (t.startsWith("#!")) return directive(p, t, loc, read, depth, only ?? section);
    if (isComment(t)) return;
    if (only !== undefined && section !== only) return;
    if (!section) {
      p.problems.push({
        loc,
        message: "line outside a section: expected a [Section] header first",
        severity: "error",
      });
      return;
    }
    const list = p.sections.get(section) ?? [];
    if (!p.sections.has(section)) p.sections.set(section, list);
    list.push({ text: t, loc });
  });
}

function directive(p: Profile, t: string, loc: Loc, read: ReadFile, depth: number, section: string): void {
  const m = /^#!([A-Za-z-]+)\s*(.*)$/.exec(t);
  const name = m?.[1].toUpperCase() ?? "";
  if (name === "INCLUDE") {
    if (!section) {
      p.problems.push({ loc, message: "#!include must be inside a section", severity: "error" });
      return;
    }
    if (depth >= MAX_INCLUDE_DEPTH) {
      p.problems.push({ loc, message: "#!include nesting is too deep", severity: "error" });
      return;
    }
    for (const file of m![2].split(",").map((s) => s.trim()).filter(Boolean)) {
      let text: string;
      try {
        text = read(file);
      } catch (e) {
        p.problems.push({
          loc,
          message: `cannot read included file "${file}": ${(e as Error).message}`,
          severity: "error",
        });
        continue;
      }
      readInto(p, text, file, read, loc.top, depth + 1, section);
    }
    return;
  }
  if (name === "PROXY-OVERRIDE" || name === "REPLICA-OVERRIDE") {
    p.problems.push({ loc, message: `#!${m![1]}: ${OLD_FORMAT}`, severity: "error" });
  } else if (name === "MANAGED-CONFIG") {
    p.problems.push({
      loc,
      message: "#!MANAGED-CONFIG: the profile is not updated from its URL",
      severity: "warning",
    });
  } else if (!["NAME", "DESC", "SYSTEM", "CATEGORY", "ARGUMENTS", "ARGUMENTS-DESC"].includes(name)) {
    p.problems.push({
      loc,
      message: `unknown directive "${t.slice(0, 40)}" is ignored`,
      severity: "warning",
    });
  }
}

export { OLD_FORMAT };
