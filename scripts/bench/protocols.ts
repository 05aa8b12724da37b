/**
 * Proxy protocol benchmark (not a test): for each case, svc client ↔ svc server against peer
 * client ↔ peer server (v2ray, ss-libev …) on loopback, in the same run. Run from the repo root:
 *
 *   ./scripts/deno run -A scripts/bench/protocols.ts [--case shadowsocks] [--runs 3]
 *     [--bytes 1073741824] [--conns 1000] [--concurrency 16]
 *
 * Every pair ends in a local SOCKS5 port; the origin is this file run with `--origin` (raw-TCP
 * HTTP: /big, a zero body of BYTES from one 1 MiB buffer; /tiny, 3 bytes then close).
 *  1. Bulk: `curl -x socks5h://…` downloads /big; MiB/s is curl's speed_download.
 *  2. Connection rate: CONNS short connections, CONCURRENCY at a time, each a new SOCKS5 handshake
 *     and so a new protocol connection (GET /tiny, read to EOF).
 * Runs are interleaved (each run measures every pair, the order flipping each run); the verdicts
 * use the median over runs of the per-run ratio svc/peer, since the 2-CPU machine is shared.
 * Cases live in scripts/bench/protocol_cases/<protocol>.ts (see kit.ts); add yours to CASES.
 * Each case's processes are stopped by PID before the next case starts.
 */
import { parseArgs } from "node:util";
import type { CaseModule, Comparison, Env, Proc } from "./protocol_cases/kit.ts";
import { HOST } from "./protocol_cases/kit.ts";
import * as shadowsocks from "./protocol_cases/shadowsocks.ts";
import * as trojan from "./protocol_cases/trojan.ts";
import * as vless from "./protocol_cases/vless.ts";
import * as vmess from "./protocol_cases/vmess.ts";

const CASES: Record<string, CaseModule> = { shadowsocks, trojan, vmess, vless };

const CHUNK = 1 << 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function writeAll(c: Deno.Conn, b: Uint8Array): Promise<void> {
  for (let off = 0; off < b.length;) off += await c.write(off === 0 ? b : b.subarray(off));
}

async function serveOrigin(bigBytes: number): Promise<void> {
  const body = new Uint8Array(CHUNK);
  const enc = new TextEncoder();
  const tiny = enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n");
  const bigHead = enc.encode(`HTTP/1.1 200 OK\r\nContent-Length: ${bigBytes}\r\nConnection: close\r\n\r\n`);
  const listener = Deno.listen({ hostname: HOST, port: 0 });
  console.log(`PORT ${(listener.addr as Deno.NetAddr).port}`);
  for await (const c of listener) {
    (async () => {
      const buf = new Uint8Array(4096);
      let len = 0;
      try {
        while (true) {
          const n = await c.read(buf.subarray(len));
          if (n === null) return;
          len += n;
          const head = new TextDecoder().decode(buf.subarray(0, len));
          if (!head.includes("\r\n\r\n")) continue;
          if (head.startsWith("GET /big ")) {
            await writeAll(c, bigHead);
            for (let left = bigBytes; left > 0; left -= CHUNK) {
              await writeAll(c, left >= CHUNK ? body : body.subarray(0, left));
            }
          } else await writeAll(c, tiny);
          return;
        }
      } catch {
        /* client gone */
      } finally {
        try {
          c.close();
        } catch { /* closed */ }
      }
    })();
  }
}

function freePort(): number {
  const l = Deno.listen({ hostname: HOST, port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function isAlive(pid: number, comm: string): boolean {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/comm`).trim() === comm;
  } catch {
    return false;
  }
}

async function stop(p: Proc): Promise<void> {
  if (!isAlive(p.child.pid, p.comm)) return void (await p.child.status.catch(() => {}));
  try {
    p.child.kill("SIGTERM");
  } catch { /* exited */ }
  if ((await Promise.race([p.child.status, sleep(3000).then(() => "timeout")])) === "timeout") {
    try {
      p.child.kill("SIGKILL");
    } catch { /* exited */ }
    await p.child.status;
  }
}

async function curlBulk(proxyPort: number, originPort: number, bytes: number): Promise<number> {
  const out = await new Deno.Command("curl", {
    args: [
      "-s",
      "-o",
      "/dev/null",
      "--max-time",
      "120",
      "-w",
      "%{speed_download} %{size_download}",
      "-x",
      `socks5h://${HOST}:${proxyPort}`,
      `http://${HOST}:${originPort}/big`,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  const [speed, size] = new TextDecoder().decode(out.stdout).trim().split(" ").map(Number);
  if (!out.success || size !== bytes) {
    throw new Error(`curl exited ${out.code} after ${size} of ${bytes} bytes`);
  }
  return speed / (1 << 20);
}

async function readExactly(c: Deno.Conn, buf: Uint8Array, n: number): Promise<void> {
  for (let got = 0; got < n;) {
    const k = await c.read(buf.subarray(got, n));
    if (k === null) throw new Error("Closed during SOCKS handshake");
    got += k;
  }
}

async function readAll(c: Deno.Conn): Promise<number> {
  const buf = new Uint8Array(4096);
  let total = 0;
  for (let n; (n = await c.read(buf)) !== null;) total += n;
  return total;
}

async function socksConnect(proxyPort: number, originPort: number, live: Set<Deno.Conn>): Promise<Deno.Conn> {
  const c = await Deno.connect({ hostname: HOST, port: proxyPort });
  live.add(c);
  const buf = new Uint8Array(10);
  await writeAll(c, new Uint8Array([5, 1, 0]));
  await readExactly(c, buf, 2);
  await writeAll(c, new Uint8Array([5, 1, 0, 1, 127, 0, 0, 1, originPort >> 8, originPort & 255]));
  await readExactly(c, buf, 10);
  if (buf[1] !== 0) throw new Error(`SOCKS5 reply ${buf[1]}`);
  return c;
}

const TINY = new TextEncoder().encode(`GET /tiny HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`);

async function connRate(
  proxyPort: number,
  originPort: number,
  conns: number,
  concurrency: number,
): Promise<number> {
  const live = new Set<Deno.Conn>();
  let next = 0, errors = 0, timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    for (const c of live) c.close();
  }, 20_000);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < conns && !timedOut) {
      next++;
      let c: Deno.Conn | undefined;
      try {
        c = await socksConnect(proxyPort, originPort, live);
        await writeAll(c, TINY);
        if ((await readAll(c)) < 10) throw new Error("Short response");
      } catch {
        errors++;
      } finally {
        if (c) {
          live.delete(c);
          try {
            c.close();
          } catch { /* closed */ }
        }
      }
    }
  }));
  clearTimeout(watchdog);
  if (timedOut) throw new Error("Connection run over 20 s");
  if (errors > 0) throw new Error(`${errors} of ${conns} connections failed`);
  return conns / ((performance.now() - t0) / 1000);
}

/** The client half-closes right after its request; true when the whole response still arrives. */
async function halfClose(proxyPort: number, originPort: number): Promise<boolean> {
  const live = new Set<Deno.Conn>();
  const timer = setTimeout(() => live.forEach((c) => c.close()), 5000);
  try {
    const c = await socksConnect(proxyPort, originPort, live);
    await writeAll(c, new TextEncoder().encode("GET /tiny HTTP/1.0\r\n\r\n"));
    await c.closeWrite();
    const n = await readAll(c);
    c.close();
    return n > 10;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function makeEnv(tmp: string, root: string, procs: Proc[]): Env {
  const env: Env = {
    tmp,
    root,
    freePort,
    spawn(name, cmd, args, comm) {
      const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "piped" }).spawn();
      const p: Proc = { name, child, comm, stderr: [] };
      (async () => {
        const dec = new TextDecoder();
        for await (const chunk of child.stderr) {
          p.stderr.push(dec.decode(chunk));
          if (p.stderr.length > 50) p.stderr.shift();
        }
      })().catch(() => {});
      procs.push(p);
      return p;
    },
    async waitForPort(port, p) {
      let exited = false;
      p.child.status.then(() => (exited = true));
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        if (exited) throw new Error(`${p.name} exited during start: ${p.stderr.join("")}`);
        try {
          (await Deno.connect({ hostname: HOST, port })).close();
          return;
        } catch {
          await sleep(50);
        }
      }
      throw new Error(`${p.name} did not listen on ${HOST}:${port}: ${p.stderr.join("")}`);
    },
    async svc(name, config, port) {
      const p = env.spawn(name, `${root}scripts/svc`, [
        "run",
        "-c",
        env.file(`${name}.json`, JSON.stringify(config)),
      ], "deno");
      await env.waitForPort(port, p);
      return p;
    },
    which: (paths) =>
      paths.find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      }),
    file(name, text) {
      const path = `${tmp}/${name}`;
      Deno.writeTextFileSync(path, text);
      return path;
    },
  };
  return env;
}

/** One line of the final table: svc against one peer on one comparison. */
interface Row {
  comparison: string;
  peer: string;
  svcBulk: number;
  peerBulk: number;
  bulkRatio: number;
  rateRatio: number;
  /** "bulk ≥ 1.0" when the issue sets a target here. */
  target?: string;
  pass?: boolean;
  note?: string;
}

/**
 * The issue's speed targets (issue 4). Listed here as well as in the cases so that a target whose
 * peer is missing, or whose case failed, shows as not measured instead of vanishing.
 */
const ISSUE_TARGETS: { case: string; comparison: string; peer: string; atLeast: number }[] = [
  { case: "shadowsocks", comparison: "shadowsocks aes-128-gcm", peer: "v2ray", atLeast: 1.0 },
  { case: "shadowsocks", comparison: "shadowsocks chacha20-ietf-poly1305", peer: "ss-libev", atLeast: 1.5 },
  { case: "vmess", comparison: "vmess aes-128-gcm", peer: "v2ray", atLeast: 1.0 },
  { case: "vless", comparison: "vless+tls", peer: "v2ray", atLeast: 1.0 },
  { case: "trojan", comparison: "trojan+tls", peer: "v2ray", atLeast: 1.0 },
];

async function runComparison(
  c: Comparison,
  env: Env,
  originPort: number,
  o: { runs: number; bytes: number; conns: number; concurrency: number },
  rows: Row[],
): Promise<boolean> {
  const pairs = [c.svc, ...c.peers];
  const ports = new Map<string, number>();
  for (const p of pairs) ports.set(p.name, await p.start(env));
  const bulk = new Map(pairs.map((p) => [p.name, [] as number[]]));
  const rate = new Map(pairs.map((p) => [p.name, [] as number[]]));
  console.log(`\n== ${c.name}: ${pairs.map((p) => p.name).join(" vs ")}`);
  for (const p of pairs) await connRate(ports.get(p.name)!, originPort, 200, o.concurrency).catch(() => {}); // warm-up
  for (let r = 0; r < o.runs; r++) {
    const order = r % 2 === 0 ? pairs : [...pairs].reverse();
    for (const p of order) bulk.get(p.name)!.push(await curlBulk(ports.get(p.name)!, originPort, o.bytes));
    for (const p of order) {
      // A peer that cannot keep up (v2ray 4.34's socks→ss chain here) is reported, not fatal.
      const r = await connRate(ports.get(p.name)!, originPort, o.conns, o.concurrency).catch((e) => {
        console.log(`  ${p.name} connection run: ${e.message}`);
        return NaN;
      });
      rate.get(p.name)!.push(r);
    }
    console.log(
      `run ${r + 1}: ` +
        pairs.map((p) =>
          `${p.name} ${bulk.get(p.name)![r].toFixed(0)} MiB/s ${rate.get(p.name)![r].toFixed(0)} conn/s`
        )
          .join(" | "),
    );
  }
  const paired = (peer: string, m: Map<string, number[]>) => {
    const s = m.get("svc")!, q = m.get(peer) ?? [];
    return q.length ? median(s.map((v, i) => v / q[i])) : NaN;
  };
  for (const p of pairs) {
    console.log(
      `  ${p.name.padEnd(24)} bulk ${median(bulk.get(p.name)!).toFixed(0).padStart(5)} MiB/s  ` +
        `${median(rate.get(p.name)!).toFixed(0).padStart(6)} conn/s`,
    );
  }
  for (const p of c.peers) {
    console.log(
      `  svc/${p.name} per-run ratio, median: bulk ${paired(p.name, bulk).toFixed(2)}, conn/s ${
        paired(p.name, rate).toFixed(2)
      }`,
    );
  }
  const hc = await halfClose(ports.get("svc")!, originPort);
  console.log(`  svc half-close (client FIN right after its request): ${hc ? "ok" : "response lost"}`);
  let ok = hc;
  for (const p of c.peers) {
    const row: Row = {
      comparison: c.name,
      peer: p.name,
      svcBulk: median(bulk.get("svc")!),
      peerBulk: median(bulk.get(p.name)!),
      bulkRatio: paired(p.name, bulk),
      rateRatio: paired(p.name, rate),
      note: hc ? undefined : "svc lost the response after half-close",
    };
    for (const t of c.targets.filter((t) => t.peer === p.name)) {
      const v = paired(t.peer, t.metric === "bulk" ? bulk : rate);
      const pass = v >= t.atLeast;
      ok &&= pass;
      row.target = `${t.metric} ≥ ${t.atLeast.toFixed(1)}`;
      row.pass = pass;
      console.log(
        `  ${pass ? "PASS" : "FAIL"}  ${t.metric} svc ≥ ${t.atLeast} × ${t.peer} (got ${v.toFixed(2)})`,
      );
    }
    rows.push(row);
  }
  return ok;
}

/** The one table at the end: every comparison's ratios, and each issue target's verdict. */
function printSummary(
  rows: Row[],
  failed: { comparison: string; error: string }[],
  cases: string[],
): boolean {
  let ok = failed.length === 0;
  for (const t of ISSUE_TARGETS.filter((t) => cases.includes(t.case))) {
    if (rows.some((r) => r.comparison === t.comparison && r.peer === t.peer && r.target)) continue;
    ok = false;
    const why = failed.find((f) => f.comparison === t.comparison)?.error ?? `peer "${t.peer}" not run`;
    rows.push({
      comparison: t.comparison,
      peer: t.peer,
      svcBulk: NaN,
      peerBulk: NaN,
      bulkRatio: NaN,
      rateRatio: NaN,
      target: `bulk ≥ ${t.atLeast.toFixed(1)}`,
      pass: false,
      note: `not measured: ${why}`,
    });
  }
  const f = (v: number, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : "-");
  const head = ["comparison", "peer", "svc MiB/s", "peer MiB/s", "bulk ×", "conn/s ×", "target", "verdict"];
  const body = rows.map((r) => [
    r.comparison,
    r.peer,
    f(r.svcBulk),
    f(r.peerBulk),
    f(r.bulkRatio, 2),
    f(r.rateRatio, 2),
    r.target ?? "",
    (r.pass === undefined ? "" : r.pass ? "PASS" : "FAIL") + (r.note ? ` (${r.note})` : ""),
  ]);
  for (const f of failed) body.push([f.comparison, "", "", "", "", "", "", `ERROR: ${f.error}`]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  console.log(`\n== Summary (ratios are svc/peer, median of per-run ratios)`);
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const b of body) console.log(line(b));
  return ok;
}

async function main(): Promise<number> {
  const { values: o } = parseArgs({
    args: Deno.args,
    options: {
      case: { type: "string", multiple: true },
      runs: { type: "string", default: "3" },
      bytes: { type: "string", default: String(1 << 30) },
      conns: { type: "string", default: "1000" },
      concurrency: { type: "string", default: "16" },
    },
  });
  const opts = {
    runs: Number(o.runs),
    bytes: Number(o.bytes),
    conns: Number(o.conns),
    concurrency: Number(o.concurrency),
  };
  const names = o.case?.length ? o.case : Object.keys(CASES);
  const root = new URL("../..", import.meta.url).pathname;
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-protocols-" });
  const originProcs: Proc[] = [];
  const rows: Row[] = [];
  const failed: { comparison: string; error: string }[] = [];
  let ok = true;
  try {
    const origin = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--origin", String(opts.bytes)],
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    originProcs.push({ name: "origin", child: origin, comm: "deno", stderr: [] });
    const reader = origin.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const first = await Promise.race([reader.read(), sleep(15_000).then(() => undefined)]);
    const originPort = Number(first?.value?.match(/PORT (\d+)/)?.[1]);
    if (!originPort) throw new Error("The origin did not start");
    reader.releaseLock();
    origin.stdout.cancel().catch(() => {});
    console.log(
      `Deno ${Deno.version.deno}; ${navigator.hardwareConcurrency} CPUs; bulk ${
        opts.bytes / (1 << 20)
      } MiB; ` +
        `${opts.conns} connections × ${opts.concurrency}; ${opts.runs} runs, median of per-run ratios`,
    );
    for (const name of names) {
      const mod = CASES[name];
      if (!mod) throw new Error(`Unknown case "${name}": expected one of ${Object.keys(CASES).join(", ")}`);
      const procs: Proc[] = [];
      const env = makeEnv(tmp, root, procs);
      try {
        for (const c of mod.cases(env)) {
          try {
            ok = (await runComparison(c, env, originPort, opts, rows)) && ok;
          } catch (e) {
            // One broken case must not hide the others' figures: record it and go on.
            ok = false;
            failed.push({ comparison: c.name, error: (e as Error).message.split("\n")[0].slice(0, 160) });
            console.log(`  ${c.name}: ${(e as Error).message}`);
          } finally {
            for (const p of procs.splice(0).reverse()) await stop(p);
          }
        }
      } finally {
        for (const p of procs.reverse()) await stop(p);
      }
    }
    ok = printSummary(rows, failed, names) && ok;
    return ok ? 0 : 1;
  } finally {
    for (const p of originProcs) await stop(p);
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (Deno.args[0] === "--origin") {
  await serveOrigin(Number(Deno.args[1] ?? 1 << 30));
} else {
  Deno.exit(await main());
}
