/**
 * `svc import` end to end with real peers: a base64 subscription naming shadowsocks-libev
 * `ss-server` (plain, and behind simple-obfs `obfs-server` through the obfs-local plugin),
 * microsocks with a password and squid is imported by the real CLI; the outbounds it prints run in
 * an engine and curl reaches the origin through each of them. Also the exit codes and the problem
 * lines on standard error.
 */
import assert from "node:assert/strict";
import { curl, startEngine } from "../../support/engine.ts";
import { inboundPort, origin, tempDir } from "../../support/e2e.ts";
import { startMicrosocks, startSquid } from "../../support/peers.ts";
import { startSsServer } from "../../support/ss_peers.ts";
import { svc } from "../../support/svc_cli.ts";

const HELLO = "hello from origin\n";
const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

Deno.test("svc import: a base64 subscription of ss, ss+obfs, socks5 and http links carries traffic", async () => {
  await using o = origin();
  await using ss = await startSsServer({ method: "chacha20-ietf-poly1305", password: "p@ss:w/rd" });
  await using obfs = await startSsServer({
    method: "aes-256-gcm",
    password: "obfs-secret",
    plugin: "obfs-server",
    pluginOpts: "obfs=http",
  });
  await using socks = await startMicrosocks({ user: "alice", pass: "s3cret" });
  await using squid = await startSquid();
  await using dir = await tempDir();
  const plugin = encodeURIComponent("obfs-local;obfs=http;obfs-host=www.example.com");
  const list = [
    `ss://${b64("chacha20-ietf-poly1305:p@ss:w/rd")}@127.0.0.1:${ss.port}#ss%20plain`,
    `ss://${b64("aes-256-gcm:obfs-secret")}@127.0.0.1:${obfs.port}/?plugin=${plugin}#ss%20obfs`,
    `socks5://alice:s3cret@127.0.0.1:${socks.port}#microsocks`,
    `http://127.0.0.1:${squid.port}#squid`,
    "bogus://line",
  ];
  const file = `${dir.path}/sub.txt`;
  await Deno.writeTextFile(file, b64(list.join("\n")));

  const r = await svc(["import", file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`${file}:5 \\(of the decoded body\\): unknown scheme "bogus"`));
  assert.match(r.stderr, /imported 4 of 5 entries \(base64\)/);
  const { outbounds } = JSON.parse(r.stdout) as { outbounds: { tag: string }[] };
  assert.deepEqual(outbounds.map((x) => x.tag), ["ss plain", "ss obfs", "microsocks", "squid"]);

  const inbounds = outbounds.map((_, i) => ({
    type: "mixed",
    tag: `in${i}`,
    listen: "127.0.0.1",
    listen_port: 0,
  }));
  await using engine = await startEngine({
    log: { level: "info" },
    inbounds,
    outbounds,
    route: { rules: outbounds.map((x, i) => ({ inbound: `in${i}`, outbound: x.tag })) },
  });
  for (let i = 0; i < outbounds.length; i++) {
    const res = await curl(["-x", `socks5h://127.0.0.1:${inboundPort(engine, `in${i}`)}`, o.url("/hello")]);
    assert.equal(res.code, 0, `${outbounds[i].tag}: ${res.stderr}`);
    assert.equal(res.stdout, HELLO, outbounds[i].tag);
  }
});

Deno.test("svc import: nothing importable exits 1 and lists each line", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/bad.txt`;
  await Deno.writeTextFile(file, "vless://@h:1\n\ntrojan://pw@h:0\n");
  const r = await svc(["import", file]);
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout), { outbounds: [] });
  assert.match(r.stderr, new RegExp(`${file}:1: missing user id`));
  assert.match(r.stderr, new RegExp(`${file}:3: invalid port "0"`));
  const missing = await svc(["import", `${dir.path}/none.txt`]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /Cannot read/);
});

Deno.test("svc import: WireGuard links go under endpoints", async () => {
  await using dir = await tempDir();
  const key = "H48yzAxYx462r/ahWYLAATAMtEaMi/YdSKGvRxvYEsc=";
  const file = `${dir.path}/wg.txt`;
  await Deno.writeTextFile(file, `wg://${key}@127.0.0.1:51820?publickey=${key}&address=10.0.0.2#wg\n`);
  const r = await svc(["import", file]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual(doc.outbounds, []);
  assert.equal(doc.endpoints[0].type, "wireguard");
  assert.deepEqual(doc.endpoints[0].address, ["10.0.0.2/32"]);
});
