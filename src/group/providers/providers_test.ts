import * as assert from "node:assert/strict";
import { loadConfig } from "../../config/mod.ts";
import { Engine } from "../../engine/engine.ts";
import type { SelectorGroup } from "../selector.ts";

function build(config: unknown, dataDir: string, logs: string[] = []) {
  const { model } = loadConfig(JSON.stringify(config));
  return Engine.build(model, { dataDir, logSink: { write: (l) => void logs.push(l) } });
}

const socks = (tag: string, port = 1080) => ({ type: "socks", tag, server: "127.0.0.1", server_port: port });
const links = (...names: string[]) =>
  btoa(names.map((n, i) => `socks://127.0.0.1:${1000 + i}#${encodeURIComponent(n)}`).join("\n"));

Deno.test("providers: inline members, provider and group filters, exclude_type, tag clash renamed", () => {
  const dir = Deno.makeTempDirSync();
  const e = build({
    outbounds: [
      { type: "direct", tag: "hk-1" },
      { type: "selector", tag: "pick", providers: ["p"], exclude: ["^jp"] },
    ],
    outbound_providers: [{
      type: "inline",
      tag: "p",
      filter: ["hk|jp|us"],
      exclude: ["us"],
      exclude_type: ["http"],
      outbounds: [
        socks("hk-1"),
        socks("jp-1"),
        socks("us-1"),
        socks("sg-1"),
        { type: "http", tag: "hk-http", server: "127.0.0.1", server_port: 1 },
      ],
    }],
  }, dir);
  assert.deepEqual(e.providers.tags("p"), ["p/hk-1", "jp-1"]);
  const g = e.outbounds.get("pick") as SelectorGroup;
  assert.deepEqual(g.members, ["p/hk-1"]);
  assert.equal(g.now(), "p/hk-1");
  assert.equal(e.providers.outbound("p/hk-1")?.type, "socks");
});

Deno.test("providers: an unknown provider, a bad regex and an unreadable local file are config errors with paths", () => {
  const dir = Deno.makeTempDirSync();
  assert.throws(
    () =>
      build({
        outbounds: [{ type: "selector", tag: "g", providers: ["nope"] }],
        outbound_providers: [{ type: "local", tag: "l", path: "missing.txt", filter: ["("] }],
      }, dir),
    (e: Error) => {
      assert.match(e.message, /\/outbounds\/0\/providers\/0: unknown outbound provider tag "nope"/);
      assert.match(e.message, /\/outbound_providers\/0\/filter\/0: invalid regular expression "\("/);
      return true;
    },
  );
  assert.throws(
    () => build({ outbound_providers: [{ type: "local", tag: "l", path: "missing.txt" }] }, dir),
    /\/outbound_providers\/0\/path.*cannot read provider file ".*missing.txt"/s,
  );
});

Deno.test("providers: a local file reloads on change, groups see it live, a bad body keeps the last good set", async () => {
  const dir = Deno.makeTempDirSync();
  Deno.writeTextFileSync(`${dir}/sub.txt`, links("a", "b"));
  const logs: string[] = [];
  const e = build(
    {
      outbounds: [{ type: "selector", tag: "g", providers: ["sub"] }],
      outbound_providers: [{ type: "local", tag: "sub", path: "sub.txt" }],
    },
    dir,
    logs,
  );
  await e.start();
  try {
    const g = e.outbounds.get("g") as SelectorGroup;
    assert.deepEqual(g.members, ["a", "b"]);
    g.select("b");
    const wait = async (ok: () => boolean) => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 30));
      assert.ok(ok());
    };
    Deno.writeTextFileSync(`${dir}/sub.txt`, links("c", "a"));
    await wait(() => g.members.join() === "c,a");
    // The selection went away with its member: the first member stands in.
    assert.equal(g.now(), "c");
    const version = e.providers.get("sub")!.version;
    Deno.writeTextFileSync(`${dir}/sub.txt`, "not a subscription at all ::::");
    await wait(() => logs.some((l) => /keeping the last good set/.test(l)));
    assert.equal(e.providers.get("sub")!.version, version);
    assert.deepEqual(g.members, ["c", "a"]);
  } finally {
    await e.stop();
  }
});

Deno.test("providers: health_check tests members through the groups' scheduler", async () => {
  const dir = Deno.makeTempDirSync();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response("ok"));
  const e = build({
    outbounds: [{ type: "selector", tag: "g", providers: ["p"] }],
    outbound_providers: [{
      type: "inline",
      tag: "p",
      health_check: {
        enabled: true,
        url: `http://127.0.0.1:${server.addr.port}/`,
        interval: "1h",
        timeout: "2s",
      },
      outbounds: [{ type: "direct", tag: "up" }, socks("down", 1)],
    }],
  }, dir);
  await e.start();
  try {
    const g = e.outbounds.get("g") as SelectorGroup & {
      env: { health: import("../health.ts").HealthChecks };
    };
    const health = g["env"].health;
    for (let i = 0; i < 100 && !(health.last("up") && health.last("down")); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(health.last("up")?.delay !== undefined, JSON.stringify(health.last("up")));
    assert.ok(health.isDown("down"));
  } finally {
    await e.stop();
    await server.shutdown();
  }
});

Deno.test("http_get: chunked bodies decode, and bodies over the cap are refused", async () => {
  const { dechunk, readResponse } = await import("./http_get.ts");
  const enc = new TextEncoder();
  assert.equal(
    new TextDecoder().decode(dechunk(enc.encode("3\r\nabc\r\n2;x=1\r\nde\r\n0\r\n\r\n"), 100)),
    "abcde",
  );
  assert.throws(() => dechunk(enc.encode("5\r\nab"), 100), /ends early/);
  assert.throws(() => dechunk(enc.encode("zz\r\n"), 100), /Bad chunk size/);
  const conn = (text: string) => {
    const data = enc.encode(text);
    let off = 0;
    return {
      read: (b: Uint8Array) => {
        if (off >= data.length) return Promise.resolve(null);
        const n = Math.min(b.length, data.length - off, 7);
        b.set(data.subarray(off, off + n));
        off += n;
        return Promise.resolve(n);
      },
    } as never;
  };
  const ok = await readResponse(conn("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRA"), 100);
  assert.equal(new TextDecoder().decode(ok.body), "hello");
  await assert.rejects(
    () => readResponse(conn("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nx"), 100),
    /larger than/,
  );
  await assert.rejects(
    () => readResponse(conn(`HTTP/1.1 200 OK\r\n\r\n${"x".repeat(300)}`), 100),
    /larger than/,
  );
  await assert.rejects(() => readResponse(conn("SSH-2.0\r\n\r\n"), 100), /not HTTP/);
});
