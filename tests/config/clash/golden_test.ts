/**
 * Clash YAML golden corpus: each `golden/<name>.yaml` converts to the checked-in
 * `golden/<name>.json`, and that JSON, checked as native, gives the same model as the YAML.
 * Regenerate after a deliberate change with: UPDATE_GOLDEN=1 ./scripts/deno test -A tests/config/clash
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { checkConfig, convertConfig } from "../../../src/config/mod.ts";

const dir = new URL("./golden/", import.meta.url);
const update = Deno.env.get("UPDATE_GOLDEN") === "1";

for (const entry of Deno.readDirSync(dir)) {
  if (!entry.name.endsWith(".yaml")) continue;
  const name = entry.name.slice(0, -5);
  Deno.test(`clash golden: ${name}`, async () => {
    const yaml = await Deno.readTextFile(new URL(entry.name, dir));
    const fromYaml = checkConfig(yaml, { file: entry.name });
    assertEquals(fromYaml.errors.map((e) => e.message), []);
    assertEquals(fromYaml.format, "clash");
    const json = convertConfig(yaml, { file: entry.name });
    const expectedFile = new URL(`${name}.json`, dir);
    if (update) await Deno.writeTextFile(expectedFile, json);
    assertEquals(JSON.parse(json), JSON.parse(await Deno.readTextFile(expectedFile)));
    const fromJson = checkConfig(json, { file: `${name}.json` });
    assertEquals(fromJson.errors.map((e) => e.message), []);
    assert(fromJson.model && fromYaml.model);
    assertEquals(fromJson.model, fromYaml.model);
  });
}
