import assert from "node:assert/strict";
import { Logger, parseLogLevel } from "./log.ts";

function capture(opts: ConstructorParameters<typeof Logger>[0] = {}) {
  const lines: string[] = [];
  const logger = new Logger({ ...opts, sink: { write: (l) => void lines.push(l) } });
  return { logger, lines };
}

Deno.test("log levels: warning is warn, fatal and panic act as error", () => {
  assert.equal(parseLogLevel("warning"), "warn");
  assert.equal(parseLogLevel("fatal"), "error");
  assert.equal(parseLogLevel("panic"), "error");
  assert.throws(() => parseLogLevel("loud"));
});

Deno.test("log: level filters, full format, scope, timestamp", () => {
  const { logger, lines } = capture({ level: "warn", timestamp: true, now: () => new Date(0) });
  const child = logger.child("inbound/mixed[in]");
  child.info("hidden");
  child.warn("shown");
  assert.deepEqual(lines, ["1970-01-01T00:00:00.000Z WARN inbound/mixed[in]: shown\n"]);
});

Deno.test("log: compact writes the message alone; disabled writes nothing; colour only when asked", () => {
  const c = capture({ format: "compact" });
  c.logger.child("x").info("just this");
  assert.deepEqual(c.lines, ["just this\n"]);
  const d = capture({ disabled: true });
  d.logger.error("nothing");
  assert.deepEqual(d.lines, []);
  const plain = capture();
  plain.logger.info("m");
  assert.equal(plain.lines[0], "INFO m\n");
  const coloured = capture({ colour: true });
  coloured.logger.info("m");
  assert.equal(coloured.lines[0], "\x1b[32mINFO\x1b[0m m\n");
});

Deno.test("log: file output appends lines", async () => {
  const { fileSink } = await import("./log.ts");
  const path = await Deno.makeTempFile();
  const sink = fileSink(path);
  new Logger({ sink }).info("to file");
  sink.close();
  assert.equal(await Deno.readTextFile(path), "INFO to file\n");
  await Deno.remove(path);
});
