/**
 * Go duration strings ("300ms", "1h30m", "-1.5h", "3d") as used by sing-box, converted to
 * milliseconds. The model stores every duration as a number of milliseconds.
 */
import { z } from "zod";

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  "μs": 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d)/y;

/** Milliseconds of a Go duration string, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  let i = 0;
  let sign = 1;
  if (text[0] === "-" || text[0] === "+") {
    sign = text[0] === "-" ? -1 : 1;
    i = 1;
  }
  // Go accepts a bare "0" (with an optional sign) and nothing else without a unit.
  if (text.slice(i) === "0") return 0;
  if (i >= text.length) return undefined;
  let total = 0;
  while (i < text.length) {
    PART.lastIndex = i;
    const m = PART.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]];
    i = PART.lastIndex;
  }
  return sign * total;
}

/** Go duration text of a number of milliseconds (for messages and canonical output). */
export function formatDuration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** A duration string that must be greater than zero; output is milliseconds. */
export function duration() {
  return z
    .string({
      error: (iss) => iss.input === undefined ? undefined : 'expected a duration string such as "5m"',
    })
    .transform((text, ctx) => {
      const ms = parseDuration(text.trim());
      if (ms === undefined) {
        ctx.addIssue({
          code: "custom",
          message: `invalid duration "${text}" (use a form such as "300ms", "5m" or "1h30m")`,
        });
        return z.NEVER;
      }
      if (!(ms > 0)) {
        ctx.addIssue({ code: "custom", message: "duration must be greater than zero" });
        return z.NEVER;
      }
      return ms;
    })
    .meta({ description: 'Go duration string, such as "300ms", "5m", "1h30m" or "3d"' });
}
