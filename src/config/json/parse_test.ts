import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { LineIndex, lineOf, parseJsonc } from "./parse.ts";

Deno.test("parseJsonc accepts comments and trailing commas", () => {
  const r = parseJsonc(`// head\n{\n  /* block */ "a": [1, 2,], // tail\n  "b": {"c": true,},\n}`);
  assertEquals(r.errors, []);
  assertEquals(JSON.parse(JSON.stringify(r.value)), { a: [1, 2], b: { c: true } });
});

Deno.test("parseJsonc reports the first syntax error with line and column", () => {
  const r = parseJsonc(`{\n  "a": 1\n  "b": 2\n}`);
  assertEquals(r.errors, [{ path: "", message: 'line 3, column 3: expected ","', line: 3 }]);
  assertEquals(r.value, undefined);
});

Deno.test("parseJsonc reports duplicate keys at every depth", () => {
  const r = parseJsonc(`{"a": {"x": 1, "x": 2}, "l": [{"y": 1, "y": 1}]}`);
  assertEquals(r.errors.map((e) => e.path), ["/a/x", "/l/0/y"]);
});

Deno.test("lineOf finds a path or its nearest ancestor", () => {
  const r = parseJsonc(`{\n  "a": {\n    "b": [\n      10,\n      20\n    ]\n  }\n}`);
  assertEquals(lineOf(r, ["a"]), 2);
  assertEquals(lineOf(r, ["a", "b", "1"]), 5);
  assertEquals(lineOf(r, ["a", "missing"]), 2);
  assertEquals(lineOf(r, []), undefined);
});

Deno.test("LineIndex maps offsets to lines and columns", () => {
  const index = new LineIndex("ab\ncd\n\nef");
  assertEquals(index.position(0), { line: 1, column: 1 });
  assertEquals(index.position(4), { line: 2, column: 2 });
  assertEquals(index.position(6), { line: 3, column: 1 });
  assertEquals(index.position(8), { line: 4, column: 2 });
});
