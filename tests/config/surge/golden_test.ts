/**
 * Surge profile golden corpus: each `golden/<name>.conf` converts to the checked-in
 * `golden/<name>.json`, and that JSON, checked as native, gives the same model as the YAML.
 * Regenerate after a deliberate change with: UPDATE_GOLDEN=1 ./scripts/deno test -A tests/config/surge
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { checkConfig, convertConfig } from "../../../src/config/mod.ts";

const dir = new URL("./golden/", import.meta.url);
const update = Deno.env.get("UPDATE_GOLDEN") === "1";

for (const entry of Deno.readDirSync(dir)) {
  if (!entry.name.endsWith(".conf")) continue;
  const name = entry.name.slice(0, -5);
  Deno.test(`surge golden: ${name}`, async () => {
    // The full path, so files the profile names are read beside it.
    const file = new URL(entry.name, dir).pathname;
    const conf = await Deno.readTextFile(file);
    const fromConf = checkConfig(conf, { file });
    assertEquals(fromConf.errors.map((e) => e.message), []);
    assertEquals(fromConf.format, "surge");
    const json = convertConfig(conf, { file });
    const expectedFile = new URL(`${name}.json`, dir);
    if (update) await Deno.writeTextFile(expectedFile, json);
    assertEquals(JSON.parse(json), JSON.parse(await Deno.readTextFile(expectedFile)));
    const fromJson = checkConfig(json, { file: `${name}.json` });
    assertEquals(fromJson.errors.map((e) => e.message), []);
    assert(fromJson.model && fromConf.model);
    assertEquals(fromJson.model, fromConf.model);
  });
}
