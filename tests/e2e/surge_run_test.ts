/**
 * Surge profile round trip with real traffic: the .conf runs as is (curl through its
 * socks5-listen and http-listen, a select group, an ss proxy to a real ss-server, REJECT and
 * DIRECT rules, a policy-path file beside it), and `svc convert` gives native JSON that
 * `svc check` accepts and that routes the same way.
 */
import assert from "node:assert/strict";
import { checkConfig } from "../../src/config/mod.ts";
import { Engine } from "../../src/engine/engine.ts";
import { curl, freePort } from "../support/engine.ts";
import { origin, tempDir } from "../support/e2e.ts";
import { startSsServer } from "../support/ss_peers.ts";
import { svc } from "../support/svc_cli.ts";

function profile(http: number, socks: number, ssPort: number, viaSs: number, rejected: number): string {
  return `# a Surge profile on loopback
[General]
loglevel = notify
http-listen = 127.0.0.1:${http}
socks5-listen = 127.0.0.1:${socks}

[Proxy]
ss-loop = ss, 127.0.0.1, ${ssPort}, encrypt-method=aes-256-gcm, password=test-password, udp-relay=true

[Proxy Group]
Proxy = select, ss-loop, DIRECT
Listed = select, policy-path=listed.txt

[Rule]
DEST-PORT,${viaSs},Proxy
AND,((PROTOCOL,TCP),(DEST-PORT,${rejected})),REJECT
DOMAIN-SUFFIX,example.invalid,Listed
FINAL,DIRECT
`;
}

Deno.test("a Surge profile runs: group → ss-server, REJECT, DIRECT, and its converted JSON routes the same", async () => {
  await using ssOrigin = origin();
  await using otherOrigin = origin();
  const ss = await startSsServer({ method: "aes-256-gcm", password: "test-password" });
  await using dir = await tempDir();
  try {
    // policy-path files are read from beside the profile.
    await Deno.writeTextFile(
      `${dir.path}/listed.txt`,
      `ss-2 = ss, 127.0.0.1, ${ss.port}, encrypt-method=aes-256-gcm, password=test-password\n`,
    );
    for (const kind of ["conf", "json"] as const) {
      const http = freePort(), socks = freePort();
      const file = `${dir.path}/profile.conf`;
      await Deno.writeTextFile(file, profile(http, socks, ss.port, ssOrigin.port, otherOrigin.port));
      let text = await Deno.readTextFile(file), used = file;
      if (kind === "json") {
        const converted = await svc(["convert", "-c", file]);
        assert.equal(converted.code, 0, converted.stderr);
        used = `${dir.path}/profile.json`;
        text = converted.stdout;
        await Deno.writeTextFile(used, text);
        const checked = await svc(["check", "-c", used]);
        assert.equal(checked.code, 0, checked.stderr);
      }
      const r = checkConfig(text, { file: used });
      assert.deepEqual(r.errors.map((e) => e.message), []);
      const engine = Engine.build(r.model!, { logSink: { write: () => {} } });
      await engine.start();
      try {
        const viaSocks = await curl(["-x", `socks5h://127.0.0.1:${socks}`, ssOrigin.url("/hello")]);
        assert.equal(viaSocks.code, 0, `${kind}: ${viaSocks.stderr}`);
        assert.equal(viaSocks.stdout, "hello from origin\n");
        const viaHttp = await curl(["-x", `http://127.0.0.1:${http}`, ssOrigin.url("/hello")]);
        assert.equal(viaHttp.stdout, "hello from origin\n", `${kind}: ${viaHttp.stderr}`);
        const rejected = await curl(["-x", `socks5h://127.0.0.1:${socks}`, otherOrigin.url("/hello")]);
        assert.notEqual(rejected.code, 0, `${kind}: the REJECT rule let it through`);
      } finally {
        await engine.stop();
      }
    }
  } finally {
    await ss[Symbol.asyncDispose]();
  }
  // With ss-server gone the Proxy group's traffic fails: it really went through shadowsocks.
  const socks = freePort();
  const text = profile(freePort(), socks, ss.port, ssOrigin.port, otherOrigin.port);
  const file = `${dir.path}/again.conf`;
  const r = checkConfig(text, { file });
  assert.deepEqual(r.errors.map((e) => e.message), []);
  const engine = Engine.build(r.model!, { logSink: { write: () => {} } });
  await engine.start();
  try {
    const res = await curl(["-x", `socks5h://127.0.0.1:${socks}`, ssOrigin.url("/hello")]);
    assert.notEqual(res.code, 0);
  } finally {
    await engine.stop();
  }
});
