/**
 * Rule-sets end to end: curl through a mixed inbound whose route rules reject what a rule-set
 * matches. Covers inline, local `source` (version 3), local `binary` (.srs written by our
 * encoder, whose bytes the unit tests check against sing-box's layout), Clash text, a local file
 * reloaded on change, and a missing file failing the build with its path.
 */
import assert from "node:assert/strict";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort, origin, tempDir, waitFor } from "../support/e2e.ts";
import { writeSrs } from "../../src/route/rule_set/srs.ts";

function config(ruleSets: unknown[], tags: string[]) {
  return {
    log: { level: "info" },
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "direct" }],
    route: { rule_set: ruleSets, rules: [{ rule_set: tags, action: "reject" }], final: "direct" },
  };
}

async function get(port: number, url: string): Promise<boolean> {
  const r = await curl(["-s", "-m", "5", "-x", `socks5h://127.0.0.1:${port}`, url]);
  return r.code === 0 && r.stdout.startsWith("hello");
}

Deno.test("rule-sets: inline, local source, local binary and clash-text reject what they match", async () => {
  await using o = origin();
  await using dir = await tempDir();
  const srs = `${dir.path}/ip.srs`;
  await Deno.writeFile(srs, writeSrs({ version: 1, rules: [{ ip_cidr: ["127.0.0.2/32"] }] }));
  const src = `${dir.path}/names.json`;
  await Deno.writeTextFile(src, JSON.stringify({ version: 3, rules: [{ domain: ["localhost"] }] }));
  const txt = `${dir.path}/list.txt`;
  await Deno.writeTextFile(txt, "# comment\n+.nope.invalid\n");
  await using svc = await startEngine(config([
    { type: "inline", tag: "inline", rules: [{ port: [o.port], source_port: [1] }] },
    { type: "local", tag: "src", path: src },
    { type: "local", tag: "bin", path: srs },
    { type: "local", tag: "clash", format: "clash-text", behavior: "domain", path: txt },
  ], ["inline", "src", "bin", "clash"]));
  const p = inboundPort(svc, "in");
  assert.ok(await get(p, o.url("/hello")), "127.0.0.1 is in no set");
  assert.ok(!(await get(p, `http://localhost:${o.port}/hello`)), "the source set names localhost");
  assert.ok(!(await get(p, `http://127.0.0.2:${o.port}/hello`)), "the .srs set holds 127.0.0.2/32");
  assert.ok(!(await get(p, `http://a.nope.invalid:${o.port}/hello`)), "the clash set holds +.nope.invalid");
});

Deno.test("rule-sets: a local file is reloaded when it changes; a bad edit keeps the last good rules", async () => {
  await using o = origin();
  await using dir = await tempDir();
  const src = `${dir.path}/set.json`;
  await Deno.writeTextFile(src, JSON.stringify({ version: 1, rules: [{ domain: ["nothing.invalid"] }] }));
  await using svc = await startEngine(config([{ type: "local", tag: "s", path: src }], ["s"]));
  const p = inboundPort(svc, "in");
  assert.ok(await get(p, o.url("/hello")));
  await Deno.writeTextFile(src, JSON.stringify({ version: 2, rules: [{ ip_cidr: ["127.0.0.0/8"] }] }));
  await waitFor("the reloaded set to reject 127.0.0.1", async () => !(await get(p, o.url("/hello"))));
  await Deno.writeTextFile(src, "{ not json");
  await waitFor("the reload error", () => svc.logs.some((l) => l.includes("keeping the last good rules")));
  assert.ok(!(await get(p, o.url("/hello"))), "the last good set still applies");
});

Deno.test("rule-sets: a missing local file or unknown tag fails start naming it", async () => {
  await assert.rejects(
    () => startEngine(config([{ type: "local", tag: "s", path: "/nonexistent/set.srs" }], ["s"])),
    /\/nonexistent\/set\.srs/,
  );
  await assert.rejects(
    () => startEngine(config([{ type: "inline", tag: "s", rules: [{ domain: ["x"] }] }], ["t"])),
    /unknown rule-set/,
  );
  await assert.rejects(
    () =>
      startEngine(
        config([{ type: "local", tag: "s", format: "mrs", behavior: "domain", path: "/x" }], ["s"]),
      ),
    /"mrs"/,
  );
});

Deno.test("svc rule-set compile, decompile and match", async () => {
  await using dir = await tempDir();
  const src = `${dir.path}/s.json`;
  await Deno.writeTextFile(src, JSON.stringify({ version: 2, rules: [{ domain_suffix: ["example.com"] }] }));
  const svc = (...args: string[]) =>
    new Deno.Command("./scripts/svc", { args, stdout: "piped", stderr: "piped" }).output();
  assert.equal((await svc("rule-set", "compile", src)).code, 0);
  const dec = await svc("rule-set", "decompile", `${dir.path}/s.srs`);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(dec.stdout)), {
    version: 2,
    rules: [{ domain_suffix: ["example.com"] }],
  });
  const hit = await svc("rule-set", "match", `${dir.path}/s.srs`, "a.example.com");
  assert.equal(new TextDecoder().decode(hit.stdout).trim(), "match rule[0]");
  assert.equal((await svc("rule-set", "match", `${dir.path}/s.srs`, "example.org")).code, 1);
});
