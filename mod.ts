/**
 * svc as a library: load and check configurations, build and run engines.
 *
 * ```ts
 * import { createEngine, loadConfig } from "./mod.ts";
 * const { model } = loadConfig(await Deno.readTextFile("config.json"));
 * const engine = createEngine(model);
 * await engine.start();
 * ```
 */
import type { Model } from "./src/config/mod.ts";
import { Engine, type EngineOptions } from "./src/engine/engine.ts";

export {
  checkConfig,
  configJsonSchema,
  DEFAULT_CONFIG_TEXT,
  formatConfig,
  loadConfig,
} from "./src/config/mod.ts";
export type { ConfigWarning, Model } from "./src/config/mod.ts";
export { importShareLinks, parseShareLink } from "./src/config/links/mod.ts";
export type { ImportResult, LinkProblem } from "./src/config/links/mod.ts";
export { Engine } from "./src/engine/engine.ts";
export type { EngineOptions, EngineState } from "./src/engine/engine.ts";
export {
  ConfigError,
  ConfigErrors,
  DialError,
  DnsError,
  ProtocolError,
  SvcError,
} from "./src/common/errors.ts";
export type { TrackedConnection } from "./src/tracker/mod.ts";
export { VERSION } from "./src/cli/version.ts";

/** Builds an engine from a model without opening anything; throws ConfigErrors. */
export function createEngine(model: Model, options?: EngineOptions): Engine {
  return Engine.build(model, options);
}
