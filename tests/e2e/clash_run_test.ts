/**
 * Clash YAML round trip with real traffic: the YAML runs as is (curl through its mixed-port, a
 * select group, an ss proxy to a real ss-server, REJECT and DIRECT rules), and `svc convert` gives
 * native JSON that `svc check` accepts and that routes the same way.
 */
import assert from "node:assert/strict";
import { checkConfig } from "../../src/config/mod.ts";
import { Engine } from "../../src/engine/engine.ts";
import { curl, freePort } from "../support/engine.ts";
import { origin, tempDir } from "../support/e2e.ts";
import { startSsServer } from "../support/ss_peers.ts";
import { svc } from "../support/svc_cli.ts";

function clashYaml(mixedPort: number, ssPort: number, viaSs: number, rejected: number): string {
  return `# a typical mihomo file, on loopback
mixed-port: ${mixedPort}
allow-lan: false
mode: rule
log-level: warning
unified-delay: true
proxies:
  - name: "ss-loop"
    type: ss
    server: 127.0.0.1
    port: ${ssPort}
    cipher: chacha20-ietf-poly1305
    password: "test-password"
    udp: true
proxy-groups:
  - name: Proxy
    type: select
    proxies: [ss-loop, DIRECT]
  - name: Auto
    type: fallback
    proxies: [ss-loop]
    url: http://127.0.0.1:${viaSs}/hello
    interval: 300
rules:
  - DST-PORT,${viaSs},Proxy
  - AND,((NETWORK,TCP),(DST-PORT,${rejected})),REJECT
  - DOMAIN-SUFFIX,example.invalid,Auto
  - MATCH,DIRECT
`;
}

async function startFromText(text: string, file: string): Promise<Engine> {
  const r = checkConfig(text, { file });
  assert.deepEqual(r.errors.map((e) => e.message), []);
  const engine = Engine.build(r.model!, { logSink: { write: () => {} } });
  await engine.start();
  return engine;
}

Deno.test("a Clash YAML file runs: group → ss-server, REJECT, DIRECT, and its converted JSON routes the same", async () => {
  await using ssOrigin = origin();
  await using directOrigin = origin();
  const ss = await startSsServer({ method: "chacha20-ietf-poly1305", password: "test-password" });
  await using dir = await tempDir();
  try {
    for (const kind of ["yaml", "json"] as const) {
      const mixedPort = freePort();
      const yaml = clashYaml(mixedPort, ss.port, ssOrigin.port, directOrigin.port + 0);
      const yamlFile = `${dir.path}/config.yaml`;
      await Deno.writeTextFile(yamlFile, yaml);
      let text = yaml, file = yamlFile;
      if (kind === "json") {
        const converted = await svc(["convert", "-c", yamlFile]);
        assert.equal(converted.code, 0, converted.stderr);
        file = `${dir.path}/config.json`;
        text = converted.stdout;
        await Deno.writeTextFile(file, text);
        const checked = await svc(["check", "-c", file]);
        assert.equal(checked.code, 0, checked.stderr);
        assert.match(checked.stdout, /^configuration ok: /);
      }
      const engine = await startFromText(text, file);
      try {
        const proxy = ["-x", `socks5h://127.0.0.1:${mixedPort}`];
        const viaSs = await curl([...proxy, ssOrigin.url("/hello")]);
        assert.equal(viaSs.code, 0, `${kind}: ${viaSs.stderr}`);
        assert.equal(viaSs.stdout, "hello from origin\n");
        const rejected = await curl([...proxy, directOrigin.url("/hello")]);
        assert.notEqual(rejected.code, 0, `${kind}: the REJECT rule let it through`);
      } finally {
        await engine.stop();
      }
    }
    // With ss-server gone the Proxy group's traffic fails: it really went through shadowsocks.
    await ss[Symbol.asyncDispose]();
    const mixedPort = freePort();
    const engine = await startFromText(clashYaml(mixedPort, ss.port, ssOrigin.port, 9), "c.yaml");
    try {
      const r = await curl(["-x", `socks5h://127.0.0.1:${mixedPort}`, ssOrigin.url("/hello")]);
      assert.notEqual(r.code, 0);
    } finally {
      await engine.stop();
    }
  } finally {
    await ss[Symbol.asyncDispose]();
  }
});

Deno.test("svc check on a Clash file reports errors at YAML lines, including the engine's", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/bad.yaml`;
  await Deno.writeTextFile(
    file,
    "mixed-port: 7890\nproxies:\n  - {name: a, type: ss, server: x, port: 1, cipher: rc4, password: p}\nrules:\n  - DOMAIN,a.com,DIRECT\n  - MATCH,Nope\n",
  );
  const r = await svc(["check", "-c", file]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^error: \/proxies\/0: unknown shadowsocks method "rc4" \(line 3, column 5\)$/m);
  assert.match(r.stderr, /^error: \/rules\/1: unknown proxy or group "Nope" \(line 6, column 5\)$/m);
  // Found while building the engine (for every outbound), reported once at the key that set it.
  const engineLevel = `${dir.path}/iface.yaml`;
  await Deno.writeTextFile(
    engineLevel,
    "mixed-port: 7890\ninterface-name: eth0\nproxies:\n  - {name: a, type: ss, server: x, port: 1, cipher: aes-128-gcm, password: p}\nrules:\n  - MATCH,a\n",
  );
  const e = await svc(["check", "-c", engineLevel]);
  assert.equal(e.code, 1);
  assert.match(
    e.stderr,
    /^error: \/interface-name: binding to an interface is not supported .+ \(line 2, column 1\)$/m,
  );
  assert.match(e.stderr, /configuration invalid: 1 error\n$/);
});
