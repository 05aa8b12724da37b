/**
 * Bulk throughput through each transport, svc client layers → svc server layers on loopback (the
 * server discards and counts), and in the same run the ws tunnel of ss-v2ray-plugin (v2ray-core:
 * plugin client → plugin server → a sink) as the peer figure. Prints MB/s per run and the ratio
 * of each svc transport to the plugin. Usage: ./scripts/deno run -A scripts/bench/transport.ts [MiB] [rounds]
 */
import type { Conn } from "../../src/adapter/mod.ts";
import { Logger } from "../../src/common/log.ts";
import type { TransportModel } from "../../src/config/mod.ts";
import { writeAll } from "../../src/net/relay.ts";
import { buildClientLayers, buildServerLayers } from "../../src/transport/stack.ts";

const MIB = Number(Deno.args[0] ?? 256);
const ROUNDS = Number(Deno.args[1] ?? 3);
const logger = new Logger({ disabled: true });

async function sinkRead(c: Conn): Promise<number> {
  const b = new Uint8Array(256 * 1024);
  let n = 0;
  for (let r = await c.read(b); r !== null; r = await c.read(b)) n += r;
  return n;
}

/** Sends MIB MiB on `c`, waits for the server's count to arrive; returns MB/s. */
async function push(c: Conn, done: Promise<number>): Promise<number> {
  const chunk = new Uint8Array(256 * 1024).fill(7);
  const t0 = performance.now();
  for (let i = 0; i < MIB * 4; i++) await writeAll(c, chunk);
  await c.closeWrite();
  const n = await done;
  const s = (performance.now() - t0) / 1000;
  c.close();
  if (n !== MIB * 1024 * 1024) throw new Error(`sink got ${n} bytes`);
  return n / s / 1e6;
}

async function svcRun(t: TransportModel): Promise<number> {
  let resolve!: (n: number) => void;
  const done = new Promise<number>((r) => (resolve = r));
  const server = buildServerLayers({ transport: t }, logger).listen("127.0.0.1", 0, async (c) => {
    resolve(await sinkRead(c));
  });
  const port = server.addr.port;
  const client = buildClientLayers({ server: { host: "127.0.0.1", port }, transport: t }, {});
  try {
    const c = await client.open(() => Deno.connect({ hostname: "127.0.0.1", port }));
    return await push(c, done);
  } finally {
    client.close();
    await server.close();
  }
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const p = (l.addr as Deno.NetAddr).port;
  l.close();
  return p;
}

async function waitPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`nothing on ${port}`);
}

async function pluginRun(): Promise<number> {
  const sink = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let resolve!: (n: number) => void;
  const done = new Promise<number>((r) => (resolve = r));
  (async () => {
    const c = await sink.accept();
    resolve(await sinkRead(c));
    c.close();
  })();
  const ws = freePort(), local = freePort();
  const spawn = (args: string[]) =>
    new Deno.Command("ss-v2ray-plugin", {
      args: [...args, "-loglevel", "none"],
      stdout: "null",
      stderr: "null",
    })
      .spawn();
  const sinkPort = String((sink.addr as Deno.NetAddr).port);
  const server = spawn(["-server", "-localPort", String(ws), "-remotePort", sinkPort, "-path", "/b"]);
  const client = spawn(["-localPort", String(local), "-remotePort", String(ws), "-path", "/b"]);
  try {
    await waitPort(ws);
    await waitPort(local);
    return await push(await Deno.connect({ hostname: "127.0.0.1", port: local }), done);
  } finally {
    for (const p of [server, client]) {
      p.kill();
      await p.status;
    }
    sink.close();
  }
}

const cases: [string, () => Promise<number>][] = [
  ["ss-v2ray-plugin ws (peer)", pluginRun],
  ["svc ws", () => svcRun({ type: "ws", path: "/b" })],
  ["svc httpupgrade", () => svcRun({ type: "httpupgrade", path: "/b" })],
  ["svc grpc (h2c)", () => svcRun({ type: "grpc", service_name: "b" })],
  ["svc http (HTTP/1.1)", () => svcRun({ type: "http", path: "/b" })],
];
const results = new Map<string, number[]>(cases.map(([n]) => [n, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, run] of cases) results.get(name)!.push(await run()); // interleaved rounds
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const peer = median(results.get(cases[0][0])!);
console.log(`${MIB} MiB per run, ${ROUNDS} interleaved rounds, MB/s (median) and ratio to ss-v2ray-plugin`);
for (const [name, runs] of results) {
  const m = median(runs);
  console.log(
    `${name.padEnd(28)} ${runs.map((x) => x.toFixed(0)).join(" ").padEnd(16)} ${m.toFixed(0).padStart(5)}  ${
      (m / peer).toFixed(2)
    }x`,
  );
}
