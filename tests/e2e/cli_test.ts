/**
 * The `svc` command line as a user runs it (scripts/svc): check, format, generate secret, version,
 * and `run` with its signals (SIGTERM, SIGINT, SIGHUP reload).
 */
import assert from "node:assert/strict";
import { curl, freePort } from "../support/engine.ts";
import { origin, tempDir, waitFor } from "../support/e2e.ts";
import { waitForPort } from "../support/peers.ts";
import { svc, SvcProcess } from "../support/svc_cli.ts";

const HELLO = "hello from origin\n";

function runConfig(port: number, extra: Record<string, unknown> = {}) {
  return {
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: port }],
    outbounds: [{ type: "direct", tag: "direct" }, { type: "block", tag: "block" }],
    ...extra,
  };
}

async function writeJson(path: string, value: unknown): Promise<string> {
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
  return path;
}

/** Resolves once nothing accepts on the port any more. */
function portClosed(port: number): Promise<boolean> {
  return waitFor(`port ${port} to close`, async () => {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return false;
    } catch {
      return true;
    }
  });
}

Deno.test("svc check -c good.json exits 0 with one line", async () => {
  await using dir = await tempDir();
  const file = await writeJson(`${dir.path}/good.json`, runConfig(freePort()));
  const r = await svc(["check", "-c", file]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trimEnd().split("\n").length, 1, r.stdout);
  assert.match(r.stdout, /^configuration ok: .*good\.json \(1 inbounds, 2 outbounds, 0 rules\)\n$/);
  assert.equal(r.stderr, "");
});

Deno.test("svc -T -c bad.json lists every error with its JSON path and exits non-zero", async () => {
  await using dir = await tempDir();
  const refs = await writeJson(`${dir.path}/refs.json`, {
    inbounds: [{ type: "mixed", tag: "in", listen_port: 2080 }],
    outbounds: [
      { type: "direct", tag: "direct" },
      { type: "socks", tag: "s", server: "127.0.0.1", server_port: 1080, detour: "missing" },
    ],
    route: { rules: [{ domain: ["a.test"], outbound: "proxy" }], final: "nope" },
  });
  const r = await svc(["-T", "-c", refs]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  const lines = r.stderr.trimEnd().split("\n");
  for (
    const expected of [
      'error: /route/rules/0/outbound: unknown outbound tag "proxy"',
      'error: /route/final: unknown outbound tag "nope"',
      'error: /outbounds/1/detour: unknown outbound tag "missing"',
    ]
  ) {
    assert.ok(
      lines.some((l) => l.startsWith(`${expected} (line `)),
      `missing "${expected}" in:\n${r.stderr}`,
    );
  }
  assert.equal(lines.at(-1), "configuration invalid: 3 errors");

  const schema = await writeJson(`${dir.path}/schema.json`, {
    inbounds: [{ type: "mixed", tag: "in", listen_port: 99999, bogus: true }],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  const s = await svc(["check", "-c", schema]);
  assert.equal(s.code, 1);
  assert.match(s.stderr, /^error: \/inbounds\/0\/listen_port: .+ \(line 6\)$/m);
  assert.match(s.stderr, /^error: \/inbounds\/0\/bogus: .+ \(line 7\)$/m);
  assert.match(s.stderr, /configuration invalid: 2 errors\n$/);

  const missing = await svc(["check", "-c", `${dir.path}/absent.json`]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /absent\.json/);
});

Deno.test("svc format -c prints canonical JSON", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/messy.jsonc`;
  await Deno.writeTextFile(
    file,
    '{ // a comment\n"outbounds":[{"type":"direct","tag":"direct"}],   /* another */ "inbounds":[]}',
  );
  const r = await svc(["format", "-c", file]);
  assert.equal(r.code, 0, r.stderr);
  const expected = JSON.stringify({ outbounds: [{ type: "direct", tag: "direct" }], inbounds: [] }, null, 2);
  assert.equal(r.stdout, expected + "\n");
  const again = await writeJson(`${dir.path}/again.json`, JSON.parse(r.stdout));
  assert.equal((await svc(["format", "-c", again])).stdout, r.stdout, "formatting is idempotent");
});

Deno.test("svc generate secret: 32+ characters, 10+ distinct, different each time", async () => {
  const a = await svc(["generate", "secret"]);
  const b = await svc(["generate", "secret"]);
  for (const r of [a, b]) {
    assert.equal(r.code, 0, r.stderr);
    const s = r.stdout.trimEnd();
    assert.equal(s.split("\n").length, 1);
    assert.ok(s.length >= 32, s);
    assert.ok(new Set(s).size >= 10, s);
  }
  assert.notEqual(a.stdout, b.stdout);
});

Deno.test("svc version prints the version and features", async () => {
  const r = await svc(["version"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^svc \d+\.\d+\.\d+/);
  assert.match(r.stdout, /inbound:mixed/);
  assert.match(r.stdout, /outbound:socks/);
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`svc run -c: ${signal} stops it within 2 s, even with a live connection`, async () => {
    await using o = origin();
    await using dir = await tempDir();
    const port = freePort();
    const file = await writeJson(`${dir.path}/run.json`, runConfig(port));
    await using proc = new SvcProcess(["run", "-c", file]);
    await proc.waitForLog(/svc started/);
    await waitForPort(port);
    const r = await curl(["-x", `socks5://127.0.0.1:${port}`, o.url("/hello")]);
    assert.equal(r.stdout, HELLO, r.stderr);
    // A connection left open through the proxy must not hold the process.
    const idle = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      await idle.write(new TextEncoder().encode(`CONNECT 127.0.0.1:${o.port} HTTP/1.1\r\nHost: x\r\n\r\n`));
      const head = new Uint8Array(256);
      const n = await idle.read(head);
      assert.match(new TextDecoder().decode(head.subarray(0, n ?? 0)), /^HTTP\/1\.1 200/);
      const sent = performance.now();
      proc.kill(signal);
      const status = await proc.status;
      const took = performance.now() - sent;
      assert.ok(took < 2000, `exited after ${took.toFixed(0)} ms`);
      assert.equal(status.code, 0, proc.stderr);
      assert.match(proc.stderr, new RegExp(`${signal} received, stopping`));
    } finally {
      idle.close();
    }
  });
}

Deno.test("svc run: SIGHUP loads a changed file; an invalid one keeps the running configuration", async () => {
  await using o = origin();
  await using dir = await tempDir();
  const first = freePort();
  const second = freePort();
  const file = await writeJson(`${dir.path}/reload.json`, runConfig(first, { route: { final: "block" } }));
  await using proc = new SvcProcess(["run", "-c", file]);
  await proc.waitForLog(/svc started/);
  await waitForPort(first);
  const blocked = await curl(["-x", `socks5://127.0.0.1:${first}`, o.url("/hello")]);
  assert.notEqual(blocked.code, 0, "the first configuration sends everything to block");

  // A valid change: another port and another final outbound.
  await writeJson(file, runConfig(second, { route: { final: "direct" } }));
  let mark = proc.stderr.length;
  proc.kill("SIGHUP");
  await proc.waitForLog(/configuration reloaded/, mark);
  await waitForPort(second);
  assert.ok(await portClosed(first), "the old listener is gone");
  const ok = await curl(["-x", `socks5://127.0.0.1:${second}`, o.url("/hello")]);
  assert.equal(ok.stdout, HELLO, ok.stderr);

  // An invalid file: the error is logged and the running configuration keeps serving.
  await writeJson(file, { ...runConfig(first), route: { rules: [{ port: [80], outbound: "proxy" }] } });
  mark = proc.stderr.length;
  proc.kill("SIGHUP");
  const log = await proc.waitForLog(/reload failed/, mark);
  assert.match(log, /reload failed, kept the running configuration: .*unknown outbound tag "proxy"/);
  const still = await curl(["-x", `socks5://127.0.0.1:${second}`, o.url("/hello")]);
  assert.equal(still.stdout, HELLO, still.stderr);
  proc.kill("SIGTERM");
  assert.equal((await proc.status).code, 0);
});

Deno.test("svc -c FILE is short for svc run -c FILE", async () => {
  await using o = origin();
  await using dir = await tempDir();
  const port = freePort();
  const file = await writeJson(`${dir.path}/short.json`, runConfig(port));
  await using proc = new SvcProcess(["-c", file]);
  await proc.waitForLog(/svc started/);
  await waitForPort(port);
  const r = await curl(["-x", `http://127.0.0.1:${port}`, o.url("/hello")]);
  assert.equal(r.stdout, HELLO, r.stderr);
  proc.kill("SIGTERM");
  assert.equal((await proc.status).code, 0);
});

function portFree(port: number): boolean {
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return true;
  } catch {
    return false;
  }
}

const defaultPortFree = portFree(2080);
if (!defaultPortFree) {
  console.warn("cli_test: 127.0.0.1:2080 is in use; skipping the embedded-default test");
}

Deno.test({
  name: "svc without -c runs the embedded default: mixed on 127.0.0.1:2080 going direct",
  ignore: !defaultPortFree,
  async fn() {
    await using o = origin();
    await using proc = new SvcProcess([]);
    await proc.waitForLog(/svc started/);
    assert.match(proc.stderr, /configuration: embedded default/);
    await waitForPort(2080);
    for (const scheme of ["socks5h", "http"]) {
      const r = await curl(["-x", `${scheme}://127.0.0.1:2080`, o.url("/hello")]);
      assert.equal(r.stdout, HELLO, `${scheme}: ${r.stderr}`);
    }
    proc.kill("SIGTERM");
    assert.equal((await proc.status).code, 0);
  },
});
