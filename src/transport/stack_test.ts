/**
 * Every transport through buildClientLayers/buildServerLayers, svc to svc, with and without TLS:
 * an echo per stream, a byte-for-byte bulk transfer both ways, half-close, and many concurrent
 * streams (one connection for grpc/http).
 */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import type { Conn } from "../adapter/mod.ts";
import { Logger } from "../common/log.ts";
import type { TransportModel } from "../config/mod.ts";
import { writeAll } from "../net/relay.ts";
import { makeTestCertificates } from "../../tests/support/certs.ts";
import { buildClientLayers, buildServerLayers } from "./stack.ts";

const logger = new Logger({ disabled: true });

export async function readAll(c: Conn, max = 1 << 30): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let n = 0;
  const buf = new Uint8Array(64 * 1024);
  while (true) {
    const r = await c.read(buf);
    if (r === null) break;
    parts.push(buf.slice(0, r));
    n += r;
    if (n > max) throw new Error("too much data");
  }
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Server handler: echoes until end of stream, then half-closes. */
async function echo(c: Conn): Promise<void> {
  const buf = new Uint8Array(32 * 1024);
  while (true) {
    const n = await c.read(buf);
    if (n === null) break;
    await writeAll(c, buf.subarray(0, n));
  }
  await c.closeWrite();
}

export interface Pair {
  open(): Promise<Conn>;
  dials(): number;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function layerPair(
  transport: TransportModel,
  opts: { tls?: boolean; serverTransport?: TransportModel; handler?: (c: Conn) => Promise<void> } = {},
): Promise<Pair> {
  let tlsIn: unknown, tlsOut: unknown;
  const dir = await Deno.makeTempDir();
  if (opts.tls) {
    await makeTestCertificates(dir);
    tlsIn = { enabled: true, certificate_path: `${dir}/leaf.pem`, key_path: `${dir}/leaf.key` };
    tlsOut = { enabled: true, server_name: "localhost", certificate_path: `${dir}/ca.pem` };
  }
  const server = buildServerLayers({ tls: tlsIn, transport: opts.serverTransport ?? transport }, logger)
    .listen("127.0.0.1", 0, (c) => (opts.handler ?? echo)(c));
  const port = server.addr.port;
  const client = buildClientLayers({ server: { host: "127.0.0.1", port }, tls: tlsOut, transport }, {});
  let dials = 0;
  return {
    open: () =>
      client.open(() => {
        dials++;
        return Deno.connect({ hostname: "127.0.0.1", port });
      }),
    dials: () => dials,
    async [Symbol.asyncDispose]() {
      client.close();
      await server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function pattern(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

export const CASES: [string, TransportModel, boolean][] = [
  ["ws", { type: "ws", path: "/ws" }, false],
  ["ws tls", { type: "ws", path: "/ws" }, true],
  ["ws early data in path", { type: "ws", path: "/ws", max_early_data: 2048 }, false],
  ["ws early data in header", {
    type: "ws",
    path: "/ws",
    max_early_data: 2048,
    early_data_header_name: "Sec-WebSocket-Protocol",
  }, false],
  ["httpupgrade", { type: "httpupgrade", path: "/up", host: "example.com" }, false],
  ["httpupgrade tls", { type: "httpupgrade", path: "/up" }, true],
  ["grpc h2c", { type: "grpc", service_name: "TunService" }, false],
  ["grpc tls", { type: "grpc", service_name: "TunService" }, true],
  ["http/1.1", { type: "http", path: "/h", host: ["a.example"] }, false],
  ["http h2 tls", { type: "http", path: "/h", host: ["a.example"] }, true],
];

for (const [name, transport, tls] of CASES) {
  Deno.test(`transport ${name}: echo, bulk both ways, half-close`, async () => {
    await using pair = await layerPair(transport, { tls });
    const c = await pair.open();
    const data = pattern(3 * 1024 * 1024 + 17, 7);
    const [, back] = await Promise.all([
      (async () => {
        await writeAll(c, new TextEncoder().encode("hello"));
        await writeAll(c, data);
        await c.closeWrite();
      })(),
      readAll(c),
    ]);
    c.close();
    assertEquals(back.length, data.length + 5);
    assertEquals(new TextDecoder().decode(back.subarray(0, 5)), "hello");
    assertEquals(back.subarray(5), data);
  });

  Deno.test(`transport ${name}: 20 concurrent streams`, async () => {
    await using pair = await layerPair(transport, { tls });
    await Promise.all(Array.from({ length: 20 }, async (_, i) => {
      const c = await pair.open();
      const data = pattern(10_000 + i * 997, i);
      const [, back] = await Promise.all([
        writeAll(c, data).then(() => c.closeWrite()),
        readAll(c),
      ]);
      c.close();
      assertEquals(back, data);
    }));
    if (transport.type === "grpc" || (transport.type === "http" && tls)) assertEquals(pair.dials(), 1);
    else assertEquals(pair.dials(), 20);
  });
}

Deno.test("transport ws: a wrong path is refused with a clear error", async () => {
  await using pair = await layerPair({ type: "ws", path: "/a" }, {
    serverTransport: { type: "ws", path: "/b" },
  });
  await rejects(() => pair.open(), /404/);
});

Deno.test("transport grpc: another service name gets HTTP 404 on read", async () => {
  await using pair = await layerPair({ type: "grpc", service_name: "A" }, {
    serverTransport: { type: "grpc", service_name: "B" },
  });
  const c = await pair.open();
  await writeAll(c, new Uint8Array([1, 2, 3])).catch(() => {});
  await rejects(() => c.read(new Uint8Array(10)), /404/);
  c.close();
});

Deno.test("transport quic is refused with the item's path", async () => {
  const { transportClient } = await import("./layer.ts");
  const { ConfigError } = await import("../common/errors.ts");
  try {
    transportClient({ type: "quic" }, "/outbounds/1");
    throw new Error("no error");
  } catch (e) {
    assertEquals(e instanceof ConfigError, true);
    assertEquals((e as InstanceType<typeof ConfigError>).path, "/outbounds/1/transport/type");
  }
});
