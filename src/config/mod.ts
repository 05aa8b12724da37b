/**
 * Public surface of the configuration layer: load, check, format the native JSON(C) format and
 * describe it as JSON Schema. The model types are re-exported for the runtime.
 */
import { z } from "zod";
import { ConfigError, ConfigErrors } from "../common/errors.ts";
import { checkClash } from "./clash/load.ts";
import { checkSurge } from "./surge/load.ts";
import { type ConfigFormat, detectFormat } from "./format.ts";
import { checkJson, type Problem } from "./json/load.ts";
import { formatJsonc } from "./json/format.ts";
import { TopInput } from "./model/top.ts";
import type { Model } from "./model/top.ts";

export * from "./model/mod.ts";
export { DEFAULT_CONFIG_TEXT } from "./default.ts";
export { validateModel } from "./validate.ts";

/** A problem that does not stop the configuration from loading; logged at start. */
export type ConfigWarning = { path: string; message: string };

export { type ConfigFormat, detectFormat } from "./format.ts";

export interface LoadOptions {
  /** File name: its extension chooses the format (else the text does). */
  file?: string;
  /** The format, when the caller knows it. */
  format?: ConfigFormat;
  /**
   * Directory of files a profile names (Surge `#!include`, `policy-path`, rule-set files);
   * defaults to the directory of `file`.
   */
  baseDir?: string;
}

/** Reads files named by a profile, relative to its directory. */
function fileReader(options: LoadOptions): (name: string) => string {
  const base = options.baseDir ?? (options.file?.includes("/") ? options.file.replace(/\/[^/]*$/, "") : ".");
  return (name) => Deno.readTextFileSync(name.startsWith("/") ? name : `${base || "/"}/${name}`);
}

const toError = (p: Problem) => new ConfigError(p.path, p.message, p.line, p.column);
const toWarning = (p: Problem): ConfigWarning => ({ path: p.path, message: p.message });
const warningText = (w: ConfigWarning) => (w.path ? `${w.path}: ${w.message}` : w.message);

export interface ConfigCheck {
  errors: ConfigError[];
  warnings: ConfigWarning[];
  model?: Model;
  format: ConfigFormat;
  /**
   * Places an error found after loading (building the engine) at the source: YAML errors move
   * to the YAML path, line and column the native path came from.
   */
  relocate: (e: ConfigError) => ConfigError;
}

const keep = (e: ConfigError) => e;

/** Every error and warning of a configuration text; never throws. */
export function checkConfig(
  text: string,
  options: LoadOptions = {},
): ConfigCheck {
  const format = options.format ?? detectFormat(text, options.file);
  try {
    const r = format === "clash"
      ? checkClash(text)
      : format === "surge"
      ? checkSurge(text, fileReader(options))
      : checkJson(text);
    const relocate = r.relocate
      ? (e: ConfigError) =>
        toError(r.relocate!({ path: e.path, message: e.detail, line: e.line, column: e.column }))
      : keep;
    return {
      errors: r.errors.map(toError),
      warnings: r.warnings.map(toWarning),
      model: r.model,
      format,
      relocate,
    };
  } catch (e) {
    // A bug here must not take the caller down; report it as a configuration error.
    return {
      errors: [new ConfigError("", `internal error while checking: ${(e as Error)?.message ?? e}`)],
      warnings: [],
      format,
      relocate: keep,
    };
  }
}

/** The model of a configuration text; throws ConfigErrors listing every error (and the warnings). */
export function loadConfig(
  text: string,
  options: LoadOptions = {},
): { model: Model; warnings: ConfigWarning[]; relocate: (e: ConfigError) => ConfigError } {
  const r = checkConfig(text, options);
  if (r.errors.length > 0 || !r.model) throw new ConfigErrors(r.errors, r.warnings.map(warningText));
  return { model: r.model, warnings: r.warnings, relocate: r.relocate };
}

/**
 * The native JSON a configuration in another format becomes (`svc convert`); native JSON is
 * returned formatted. Throws ConfigErrors when the source has errors.
 */
export function convertConfig(text: string, options: LoadOptions = {}): string {
  const format = options.format ?? detectFormat(text, options.file);
  if (format === "json") return formatJsonc(text);
  const r = checkConfig(text, { ...options, format });
  if (r.errors.length) throw new ConfigErrors(r.errors, r.warnings.map(warningText));
  const native = (format === "surge" ? checkSurge(text, fileReader(options)) : checkClash(text)).native ?? {};
  return JSON.stringify(native, null, 2) + "\n";
}

/** Canonical JSON of a configuration: comments stripped, 2-space indentation, key order kept. */
export function formatConfig(text: string): string {
  return formatJsonc(text);
}

/** JSON Schema of the native format (input side: durations as strings, lists as value or array). */
export function configJsonSchema(): object {
  return z.toJSONSchema(TopInput, { io: "input", unrepresentable: "any" });
}
