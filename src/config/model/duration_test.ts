import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { formatDuration, parseDuration } from "./duration.ts";

Deno.test("parseDuration reads Go durations as milliseconds", () => {
  const cases: [string, number | undefined][] = [
    ["300ms", 300],
    ["5m", 300_000],
    ["1h30m", 5_400_000],
    ["1.5s", 1500],
    [".5s", 500],
    ["2h45m10s", 9_910_000],
    ["3d", 259_200_000],
    ["500us", 0.5],
    ["500µs", 0.5],
    ["1000000ns", 1],
    ["-1.5h", -5_400_000],
    ["+1s", 1000],
    ["0", 0],
    ["-0", 0],
    ["", undefined],
    ["5", undefined],
    ["m", undefined],
    ["5 m", undefined],
    ["1h 30m", undefined],
    ["1.2.3s", undefined],
    ["5y", undefined],
    ["-", undefined],
  ];
  for (const [text, ms] of cases) assertEquals(parseDuration(text), ms, text);
});

Deno.test("formatDuration picks the largest whole unit", () => {
  assertEquals(formatDuration(86_400_000), "1d");
  assertEquals(formatDuration(5_400_000), "90m");
  assertEquals(formatDuration(1500), "1500ms");
  assertEquals(formatDuration(30_000), "30s");
});
