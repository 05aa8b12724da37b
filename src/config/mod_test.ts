import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { ConfigErrors } from "../common/errors.ts";
import { checkConfig, configJsonSchema, formatConfig } from "./mod.ts";

Deno.test("formatConfig strips comments and keeps key order", () => {
  const text = `{
  // the log
  "log": {"level": "debug", "disabled": false,},
  "user_limits": {"zed": {"max_connections": 2}, "10": {}, "2": {}},
}`;
  assertEquals(
    formatConfig(text),
    `{
  "log": {
    "level": "debug",
    "disabled": false
  },
  "user_limits": {
    "zed": {
      "max_connections": 2
    },
    "10": {},
    "2": {}
  }
}
`,
  );
});

Deno.test("formatConfig keeps configurations that fail other checks", () => {
  assertEquals(
    formatConfig(`{"route": {"final": "nope"}}`),
    `{\n  "route": {\n    "final": "nope"\n  }\n}\n`,
  );
});

Deno.test("formatConfig throws on syntax errors and unknown fields", () => {
  throws(() => formatConfig(`{"log": }`), ConfigErrors);
  throws(
    () => formatConfig(`{"lgo": {}}`),
    (e: unknown) => e instanceof ConfigErrors && e.errors[0].path === "/lgo",
  );
});

Deno.test("configJsonSchema describes the input format", () => {
  const schema = configJsonSchema() as {
    type: string;
    properties: Record<string, { default?: unknown }>;
    additionalProperties: boolean;
  };
  assertEquals(schema.type, "object");
  assertEquals(schema.additionalProperties, false);
  for (
    const key of [
      "log",
      "dns",
      "inbounds",
      "outbounds",
      "route",
      "experimental",
      "api",
      "compat_api",
      "user_limits",
    ]
  ) {
    assert(key in schema.properties, key);
  }
  const text = JSON.stringify(schema);
  assert(text.includes('"listen_port"'));
  assert(text.includes("Go duration string"));
});

Deno.test("checkConfig never throws", () => {
  for (
    const text of ["", "{", "null", "[1]", '{"inbounds": [null]}', '{"route": {"rules": [1, "x", null]}}']
  ) {
    const r = checkConfig(text);
    assert(r.errors.length > 0, text);
  }
});
