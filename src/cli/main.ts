/**
 * The `svc` command line: run | check (-T) | format | schema | generate secret | import | version.
 * Exit codes: 0 success, 1 invalid configuration, 2 usage error, 3 start failure.
 */
import { parseArgs } from "node:util";
import { ConfigErrors, errorText } from "../common/errors.ts";
import { configJsonSchema, convertConfig, formatConfig } from "../config/mod.ts";
import { Engine } from "../engine/engine.ts";
import { features } from "../engine/registry.ts";
import { loadConfigFile, readConfigText } from "./load.ts";
import { importCommand } from "./import.ts";
import { ruleSetCommand } from "./rule_set.ts";
import { generateSecret } from "./secret.ts";
import { VERSION } from "./version.ts";

const USAGE = `svc ${VERSION}: proxy and traffic-routing engine

Usage:
  svc [run] [-c FILE]          run a configuration (the embedded default without -c:
                               a mixed proxy on 127.0.0.1:2080 going direct)
  svc check -c FILE            test a configuration; also: svc -T -c FILE
  svc format -c FILE [-w]      print the canonical JSON (-w writes it back)
  svc convert -c FILE          print the native JSON a Clash YAML file becomes
  svc schema                   print the JSON Schema of the native format
  svc generate secret          print a strong secret for the APIs
  svc rule-set compile|decompile|match ...  sing-box rule-set files (-o FILE for output)
  svc import [FILE|-]          share links or a subscription (base64, Clash YAML, sing-box
                               JSON) into native {"outbounds": [...]}; problems on stderr
  svc version                  print the version and compiled-in features

Options:
  -c, --config FILE            configuration file: .json native, .yaml/.yml Clash, .conf
                               profile; otherwise chosen by its text ("-" reads standard input)
  -T, --test                   test the configuration and exit
  -w, --write                  (format) write the result back to the file
      --stop-within-ms N       how long a stop waits for tasks (default 2000)
  -h, --help                   this text
`;

function print(text: string): void {
  console.log(text);
}

function fail(code: number, text: string): number {
  console.error(text);
  return code;
}

function reportConfigErrors(e: ConfigErrors): number {
  for (const w of e.warnings) console.error(`warning: ${w}`);
  const seen = new Set<string>();
  for (const err of e.errors) {
    // A default applied to many items fails once per item: say it once per source place.
    const key = `${err.message}\u0000${err.line}\u0000${err.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const where = err.line === undefined
      ? ""
      : ` (line ${err.line}${err.column === undefined ? "" : `, column ${err.column}`})`;
    console.error(`error: ${err.message}${where}`);
  }
  return fail(1, `configuration invalid: ${seen.size} error${seen.size === 1 ? "" : "s"}`);
}

export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        config: { type: "string", short: "c" },
        test: { type: "boolean", short: "T" },
        write: { type: "boolean", short: "w" },
        help: { type: "boolean", short: "h" },
        "stop-within-ms": { type: "string" },
        output: { type: "string", short: "o" },
      },
    });
  } catch (e) {
    return fail(2, `${errorText(e)}\n\n${USAGE}`);
  }
  const { values: v, positionals: pos } = parsed;
  if (v.help) {
    print(USAGE);
    return 0;
  }
  const command = v.test ? "check" : (pos[0] ?? "run");
  try {
    switch (command) {
      case "run":
        return await run(v.config, Number(v["stop-within-ms"] ?? 2000));
      case "check":
        return await check(v.config);
      case "format": {
        if (!v.config) return fail(2, "format needs -c FILE");
        const { text } = await readConfigText(v.config);
        const out = formatConfig(text);
        if (v.write) await Deno.writeTextFile(v.config, out);
        else print(out.trimEnd());
        return 0;
      }
      case "convert": {
        if (!v.config) return fail(2, "convert needs -c FILE");
        const { text, source } = await readConfigText(v.config);
        print(convertConfig(text, { file: source }).trimEnd());
        return 0;
      }
      case "schema":
        print(JSON.stringify(configJsonSchema(), null, 2));
        return 0;
      case "generate":
        if (pos[1] !== "secret") return fail(2, `Unknown generate target "${pos[1] ?? ""}": only "secret"`);
        print(generateSecret());
        return 0;
      case "rule-set":
        return await ruleSetCommand(pos.slice(1), v.output);
      case "import":
        return await importCommand(pos[1]);
      case "version":
        print(`svc ${VERSION}\nDeno ${Deno.version.deno}\nfeatures: ${features().join(" ")}`);
        return 0;
      case "help":
        print(USAGE);
        return 0;
      default:
        return fail(2, `Unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (e) {
    if (e instanceof ConfigErrors) return reportConfigErrors(e);
    return fail(3, `error: ${errorText(e)}`);
  }
}

async function check(file: string | undefined): Promise<number> {
  const { model, warnings, source, relocate } = await loadConfigFile(file);
  let engine: Engine;
  try {
    engine = Engine.build(model, { logSink: { write: () => {} } });
  } catch (e) {
    if (e instanceof ConfigErrors) {
      throw new ConfigErrors(
        e.errors.map(relocate),
        warnings.map((w) => (w.path ? `${w.path}: ${w.message}` : w.message)),
      );
    }
    throw e;
  }
  for (const w of warnings) console.error(`warning: ${w.path ? w.path + ": " : ""}${w.message}`);
  for (const w of engine.warnings) console.error(`warning: ${w}`);
  print(
    `configuration ok: ${source} (${model.inbounds.length} inbounds, ${model.outbounds.length} outbounds, ${model.route.rules.length} rules)`,
  );
  return 0;
}

/** Builds an engine, with build errors placed at their source lines. */
function buildPlaced(loaded: Awaited<ReturnType<typeof loadConfigFile>>, stopWithinMs: number): Engine {
  try {
    return Engine.build(loaded.model, { stopWithinMs });
  } catch (e) {
    if (e instanceof ConfigErrors) throw new ConfigErrors(e.errors.map(loaded.relocate), e.warnings);
    throw e;
  }
}

async function run(file: string | undefined, stopWithinMs: number): Promise<number> {
  const first = await loadConfigFile(file);
  let engine = buildPlaced(first, stopWithinMs);
  for (const w of first.warnings) engine.logger.warn(`${w.path ? w.path + ": " : ""}${w.message}`);
  await engine.start();
  engine.logger.info(`configuration: ${first.source}`);

  const done = Promise.withResolvers<number>();
  let reloading = false;
  const stop = async (signal: string) => {
    engine.logger.info(`${signal} received, stopping`);
    // A stuck task must not keep the process: exit once the deadline has passed.
    setTimeout(() => Deno.exit(0), stopWithinMs + 200);
    await engine.stop();
    done.resolve(0);
  };
  const reload = async () => {
    if (reloading) return;
    reloading = true;
    try {
      engine.logger.info("SIGHUP received, reloading the configuration");
      const next = await loadConfigFile(file);
      const nextEngine = buildPlaced(next, stopWithinMs);
      for (const w of next.warnings) nextEngine.logger.warn(`${w.path ? w.path + ": " : ""}${w.message}`);
      const old = engine;
      await old.stop();
      try {
        await nextEngine.start();
        engine = nextEngine;
        engine.logger.info("configuration reloaded");
      } catch (e) {
        // Listening failed (a port in use…): bring the configuration that ran back.
        const back = Engine.build(old.model, { stopWithinMs });
        await back.start();
        engine = back;
        engine.logger.error(`reload failed, kept the running configuration: ${errorText(e)}`);
      }
    } catch (e) {
      const text = e instanceof ConfigErrors ? e.errors.map((x) => x.message).join("; ") : errorText(e);
      engine.logger.error(`reload failed, kept the running configuration: ${text}`);
    } finally {
      reloading = false;
    }
  };
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGHUP", () => reload());
  return await done.promise;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
