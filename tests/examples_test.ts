/** Every shipped example configuration loads and builds (what `svc check` does). */
import assert from "node:assert/strict";
import { loadConfig } from "../src/config/mod.ts";
import { Engine } from "../src/engine/engine.ts";

const dir = new URL("../examples/", import.meta.url);
for (const entry of Deno.readDirSync(dir)) {
  if (!entry.name.endsWith(".json")) continue;
  Deno.test(`example ${entry.name} passes check`, () => {
    const { model } = loadConfig(Deno.readTextFileSync(new URL(entry.name, dir)), { file: entry.name });
    const engine = Engine.build(model, { logSink: { write: () => {} } });
    assert.deepEqual(engine.warnings, []);
  });
}
