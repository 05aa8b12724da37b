/**
 * Public surface of the configuration layer: load, check, format the native JSON(C) format and
 * describe it as JSON Schema. The model types are re-exported for the runtime.
 */
import { z } from "zod";
import { ConfigError, ConfigErrors } from "../common/errors.ts";
import { checkJson, type Problem } from "./json/load.ts";
import { formatJsonc } from "./json/format.ts";
import { TopInput } from "./model/top.ts";
import type { Model } from "./model/top.ts";

export * from "./model/mod.ts";
export { DEFAULT_CONFIG_TEXT } from "./default.ts";
export { validateModel } from "./validate.ts";

/** A problem that does not stop the configuration from loading; logged at start. */
export type ConfigWarning = { path: string; message: string };

export interface LoadOptions {
  /** File name, for messages and (later) choosing the format. */
  file?: string;
}

const toError = (p: Problem) => new ConfigError(p.path, p.message, p.line, p.column);
const toWarning = (p: Problem): ConfigWarning => ({ path: p.path, message: p.message });
const warningText = (w: ConfigWarning) => (w.path ? `${w.path}: ${w.message}` : w.message);

/** Every error and warning of a configuration text; never throws. */
export function checkConfig(
  text: string,
  _options: LoadOptions = {},
): { errors: ConfigError[]; warnings: ConfigWarning[]; model?: Model } {
  try {
    const r = checkJson(text);
    return { errors: r.errors.map(toError), warnings: r.warnings.map(toWarning), model: r.model };
  } catch (e) {
    // A bug here must not take the caller down; report it as a configuration error.
    return {
      errors: [new ConfigError("", `internal error while checking: ${(e as Error)?.message ?? e}`)],
      warnings: [],
    };
  }
}

/** The model of a configuration text; throws ConfigErrors listing every error (and the warnings). */
export function loadConfig(
  text: string,
  options: LoadOptions = {},
): { model: Model; warnings: ConfigWarning[] } {
  const r = checkConfig(text, options);
  if (r.errors.length > 0 || !r.model) throw new ConfigErrors(r.errors, r.warnings.map(warningText));
  return { model: r.model, warnings: r.warnings };
}

/** Canonical JSON of a configuration: comments stripped, 2-space indentation, key order kept. */
export function formatConfig(text: string): string {
  return formatJsonc(text);
}

/** JSON Schema of the native format (input side: durations as strings, lists as value or array). */
export function configJsonSchema(): object {
  return z.toJSONSchema(TopInput, { io: "input", unrepresentable: "any" });
}
