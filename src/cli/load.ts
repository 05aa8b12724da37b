/** Reads a configuration file (or the embedded default) into a model, by format. */
import { DEFAULT_CONFIG_TEXT, loadConfig, type Model } from "../config/mod.ts";
import type { ConfigWarning } from "../config/mod.ts";
import { ConfigError, ConfigErrors } from "../common/errors.ts";

export interface Loaded {
  model: Model;
  warnings: ConfigWarning[];
  source: string;
  /** Places engine build errors at their source line (YAML path for Clash files). */
  relocate: (e: ConfigError) => ConfigError;
}

export async function readConfigText(file: string | undefined): Promise<{ text: string; source: string }> {
  if (file === undefined) return { text: DEFAULT_CONFIG_TEXT, source: "embedded default" };
  try {
    return {
      text: file === "-" ? await new Response(Deno.stdin.readable).text() : await Deno.readTextFile(file),
      source: file,
    };
  } catch (e) {
    throw new ConfigErrors([new ConfigError("", `Cannot read "${file}": ${(e as Error).message}`)]);
  }
}

export async function loadConfigFile(file: string | undefined): Promise<Loaded> {
  const { text, source } = await readConfigText(file);
  const { model, warnings, relocate } = loadConfig(text, { file: file === undefined ? undefined : source });
  return { model, warnings, source, relocate };
}
