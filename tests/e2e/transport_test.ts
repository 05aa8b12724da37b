/**
 * The ws transport against a real implementation: shadowsocks-v2ray-plugin (`ss-v2ray-plugin`,
 * v2ray-core's WebSocket) as a plain ws tunnel, with and without TLS. svc's ws client talks to
 * the plugin's server, and the plugin's client (mux off: raw bytes in ws) talks to svc's server;
 * each carries an echo byte for byte. The plugin's server always expects v2ray's Mux.Cool inside
 * the WebSocket, so the svc-client test speaks a minimal Mux.Cool (one TCP session) written here
 * for the test: what is under test is svc's WebSocket framing, handshake and TLS below it.
 * vmess over ws and h2+TLS runs whole engines against v2ray 4.34 in both directions.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Conn } from "../../src/adapter/mod.ts";
import { Logger } from "../../src/common/log.ts";
import type { TransportModel } from "../../src/config/mod.ts";
import { writeAll } from "../../src/net/relay.ts";
import { buildClientLayers, buildServerLayers } from "../../src/transport/stack.ts";
import { makeTestCertificates } from "../support/certs.ts";
import { freePort } from "../support/engine.ts";
import { waitForPort } from "../support/peers.ts";
import { blobOrigin, curlBytes } from "../support/blob_origin.ts";
import { startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startV2rayClient, startV2rayServer, type StreamOptions } from "../support/v2ray.ts";

const logger = new Logger({ disabled: true });

function tcpEcho(): { port: number } & AsyncDisposable {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const loop = (async () => {
    for await (const c of l) {
      conns.add(c);
      (async () => {
        const buf = new Uint8Array(64 * 1024);
        for (let n = await c.read(buf); n !== null; n = await c.read(buf)) {
          await writeAll(c, buf.subarray(0, n));
        }
        await c.closeWrite();
      })().catch(() => {}).finally(() => {
        conns.delete(c);
        c.close();
      });
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    async [Symbol.asyncDispose]() {
      l.close();
      for (const c of conns) c.close();
      await loop;
    },
  };
}

/** ss-v2ray-plugin in server or client mode (SIP003 flags), stopped by its PID. */
async function startPlugin(args: string[], listenPort: number, env: Record<string, string> = {}) {
  const child = new Deno.Command("ss-v2ray-plugin", {
    args: [...args, "-loglevel", "none"],
    env,
    stdout: "null",
    stderr: "null",
  }).spawn();
  await waitForPort(listenPort);
  return {
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

function pattern(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + (i >>> 11)) & 0xff;
  return b;
}

async function echoRoundTrip(c: Conn, data: Uint8Array): Promise<Uint8Array> {
  const out = new Uint8Array(data.length);
  let got = 0;
  const reader = (async () => {
    while (got < data.length) {
      const n = await c.read(out.subarray(got));
      if (n === null) break;
      got += n;
    }
  })();
  await writeAll(c, data);
  await reader;
  return out.subarray(0, got);
}

/** One Mux.Cool TCP session to 127.0.0.1:`port` over `ws` (test-only; see the header comment). */
function muxCool(ws: Conn, port: number): Conn {
  const frame = (meta: number[], data?: Uint8Array) => {
    const out = new Uint8Array(2 + meta.length + (data ? 2 + data.length : 0));
    out[0] = meta.length >> 8;
    out[1] = meta.length & 0xff;
    out.set(meta, 2);
    if (data) {
      out[2 + meta.length] = data.length >> 8;
      out[3 + meta.length] = data.length & 0xff;
      out.set(data, 4 + meta.length);
    }
    return out;
  };
  let opened = false;
  let pending = new Uint8Array(0);
  let chunk = new Uint8Array(0);
  const fill = async (n: number) => {
    while (pending.length < n) {
      const b = new Uint8Array(65536);
      const r = await ws.read(b);
      if (r === null) return false;
      const m = new Uint8Array(pending.length + r);
      m.set(pending);
      m.set(b.subarray(0, r), pending.length);
      pending = m;
    }
    return true;
  };
  return {
    async write(p) {
      for (let off = 0; off < p.length; off += 16384) {
        const d = p.subarray(off, Math.min(p.length, off + 16384));
        const meta = opened ? [0, 1, 2, 1] : [0, 1, 1, 1, 1, port >> 8, port & 0xff, 1, 127, 0, 0, 1];
        opened = true;
        await writeAll(ws, frame(meta, d));
      }
      return p.length;
    },
    async read(p) {
      while (chunk.length === 0) {
        if (!(await fill(2))) return null;
        const ml = (pending[0] << 8) | pending[1];
        if (!(await fill(2 + ml))) return null;
        const status = pending[4], option = pending[5];
        pending = pending.subarray(2 + ml);
        if (option & 1) {
          await fill(2);
          const dl = (pending[0] << 8) | pending[1];
          await fill(2 + dl);
          chunk = pending.slice(2, 2 + dl);
          pending = pending.subarray(2 + dl);
        }
        if (status === 3) return null;
      }
      const n = Math.min(p.length, chunk.length);
      p.set(chunk.subarray(0, n));
      chunk = chunk.subarray(n);
      return n;
    },
    closeWrite: () => writeAll(ws, frame([0, 1, 3, 0])),
    close: () => ws.close(),
  };
}

async function certs(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir();
  await makeTestCertificates(dir);
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

for (const tls of [false, true]) {
  const label = tls ? "wss" : "ws";
  Deno.test(`${label}: svc client → ss-v2ray-plugin server → echo`, async () => {
    await using echo = tcpEcho();
    await using c = await certs();
    const wsPort = freePort();
    // Server mode listens on local* and forwards to remote*.
    const args = [
      "-server",
      "-localAddr",
      "127.0.0.1",
      "-localPort",
      String(wsPort),
      "-remoteAddr",
      "127.0.0.1",
    ];
    args.push("-remotePort", String(echo.port), "-path", "/ss-ws");
    if (tls) {
      args.push("-tls", "-host", "localhost", "-cert", `${c.dir}/leaf.pem`, "-key", `${c.dir}/leaf.key`);
    }
    await using _plugin = await startPlugin(args, wsPort);
    const transport: TransportModel = { type: "ws", path: "/ss-ws", headers: { Host: ["localhost"] } };
    const layers = buildClientLayers({
      server: { host: "127.0.0.1", port: wsPort },
      tls: tls ? { enabled: true, server_name: "localhost", certificate_path: `${c.dir}/ca.pem` } : undefined,
      transport,
    }, {});
    for (let i = 0; i < 3; i++) {
      const conn = muxCool(
        await layers.open(() => Deno.connect({ hostname: "127.0.0.1", port: wsPort })),
        echo.port,
      );
      const data = pattern(2 * 1024 * 1024 + i);
      assertEquals(await echoRoundTrip(conn, data), data);
      conn.close();
    }
    layers.close();
  });

  Deno.test(`${label}: ss-v2ray-plugin client → svc server → echo`, async () => {
    await using c = await certs();
    const server = buildServerLayers({
      tls: tls
        ? { enabled: true, certificate_path: `${c.dir}/leaf.pem`, key_path: `${c.dir}/leaf.key` }
        : undefined,
      transport: { type: "ws", path: "/ss-ws" },
    }, logger).listen("127.0.0.1", 0, async (conn) => {
      const buf = new Uint8Array(64 * 1024);
      for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
        await writeAll(conn, buf.subarray(0, n));
      }
      await conn.closeWrite();
    });
    try {
      const local = freePort();
      const args = ["-localAddr", "127.0.0.1", "-localPort", String(local), "-remoteAddr", "127.0.0.1"];
      args.push("-remotePort", String(server.addr.port), "-path", "/ss-ws", "-mux", "0");
      if (tls) args.push("-tls", "-host", "localhost");
      // Go trusts SSL_CERT_FILE: the test CA stands in for the system roots.
      await using _plugin = await startPlugin(args, local, { SSL_CERT_FILE: `${c.dir}/ca.pem` });
      for (let i = 0; i < 3; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: local });
        const data = pattern(2 * 1024 * 1024 + i * 7);
        assertEquals(await echoRoundTrip(conn, data), data);
        conn.close();
      }
    } finally {
      await server.close();
    }
  });
}

// vmess over ws and over h2+TLS against v2ray 4.34 both ways: whole-engine, curl byte for byte.
const UUID = "b831381d-6324-4d53-ad4f-8cda48b30811";
const V2RAY_CASES: [
  string,
  StreamOptions,
  (dir: string) => Record<string, unknown>,
  (dir: string) => Record<string, unknown>,
][] = [
  ["ws", { network: "ws", path: "/ws" }, () => ({ transport: { type: "ws", path: "/ws" } }), () => ({
    transport: { type: "ws", path: "/ws" },
  })],
  [
    "h2+TLS",
    { network: "h2", path: "/h2" },
    (dir) => ({
      tls: { enabled: true, server_name: "localhost", certificate_path: `${dir}/ca.pem` },
      transport: { type: "http", path: "/h2", host: ["localhost"] },
    }),
    (dir) => ({
      tls: { enabled: true, certificate_path: `${dir}/leaf.pem`, key_path: `${dir}/leaf.key` },
      transport: { type: "http", path: "/h2", host: ["localhost"] },
    }),
  ],
];

for (const [name, stream, outExtra, inExtra] of V2RAY_CASES) {
  Deno.test(`vmess+${name}: svc outbound → v2ray inbound, curl byte for byte`, async () => {
    await using c = await certs();
    await using o = blobOrigin(3 * 1024 * 1024 + 17);
    const tls = name.includes("TLS") ? { certs: c.dir } : {};
    await using v2 = await startV2rayServer("vmess", UUID, { ...stream, ...tls });
    await using svc = await startEngine({
      log: { level: "warn" },
      inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
      outbounds: [{
        type: "vmess",
        tag: "vm",
        server: "127.0.0.1",
        server_port: v2.port,
        uuid: UUID,
        ...outExtra(c.dir),
      }],
    });
    for (let i = 0; i < 3; i++) {
      await curlBytes(["-x", `socks5h://127.0.0.1:${inboundPort(svc, "in")}`], o.url(), o.body);
    }
  });

  Deno.test(`vmess+${name}: v2ray outbound → svc inbound, curl byte for byte`, async () => {
    await using c = await certs();
    await using o = blobOrigin(3 * 1024 * 1024 + 17);
    await using svc = await startEngine({
      log: { level: "warn" },
      inbounds: [{
        type: "vmess",
        tag: "vin",
        listen: "127.0.0.1",
        listen_port: 0,
        users: [{ name: "a", uuid: UUID, alterId: 0 }],
        ...inExtra(c.dir),
      }],
      outbounds: [{ type: "direct", tag: "direct" }],
    });
    const tls = name.includes("TLS") ? { certs: c.dir } : {};
    await using v2 = await startV2rayClient("vmess", UUID, inboundPort(svc, "vin"), { ...stream, ...tls });
    for (let i = 0; i < 3; i++) await curlBytes(["-x", `socks5h://127.0.0.1:${v2.port}`], o.url(), o.body);
  });
}
