/**
 * TCP relay benchmark (not a test): svc against dante and microsocks over loopback. Run from the
 * repository root:
 *
 *   ./scripts/deno run -A scripts/bench/relay.ts [--runs 3] [--bytes 1073741824] [--conns 2000]
 *     [--concurrency 32] [--log-level warn] [--v8-flags FLAGS]
 *
 * One origin for every path: this same file run with `--origin` (a raw-TCP HTTP server in its own
 * Deno process) serving /big (a zero-filled body written from one 1 MiB buffer, ~4 GiB/s direct)
 * and /tiny (3 bytes, then close). Paths: direct (no proxy), svc (`scripts/svc run -c` with a
 * mixed inbound → direct), dante (`danted -N 2`) and microsocks, all on 127.0.0.1 free ports.
 *  1. Bulk: `curl -x socks5h://…` downloads /big; MiB/s is curl's speed_download.
 *  2. Connection rate: CONNS short connections, CONCURRENCY at a time, each a new SOCKS5 handshake
 *     (greeting, CONNECT, GET /tiny, read to EOF) from an in-process Deno client, the same for all.
 *  3. Peak RSS (VmHWM) of svc, and of dante's process tree (sampled while it runs).
 * Runs are interleaved (run 1 of every path, then run 2 …, the order flipping each run) and each
 * figure is the median of RUNS. The machine is shared, so svc/dante is also taken per run (the two
 * run back to back) and the targets use the median of those per-run ratios: svc bulk ≥ 1.0 × dante
 * and svc conn/s ≥ 1.0 × dante; exit code 1 on FAIL (or when svc loses a half-closed response).
 * The CPU share used by other work during the run is printed: above ~15% the figures are noise.
 * Everything started here is stopped by PID and the temp dir removed, even on errors.
 * `--v8-flags` runs svc through scripts/deno with those V8 flags (to try flags without editing
 * scripts/svc); `--log-level info` measures svc's per-connection log line.
 */
import { parseArgs } from "node:util";

const HOST = "127.0.0.1"; // every socket here is loopback
const CHUNK = 1 << 20;

// ---- origin (a child process: this file run with --origin) ----

async function writeAll(c: Deno.Conn, b: Uint8Array): Promise<void> {
  for (let off = 0; off < b.length;) off += await c.write(off === 0 ? b : b.subarray(off));
}

async function serveOrigin(bigBytes: number): Promise<void> {
  const body = new Uint8Array(CHUNK);
  const enc = new TextEncoder();
  const tiny = enc.encode("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n");
  const bigHead = enc.encode(
    `HTTP/1.1 200 OK\r\nContent-Length: ${bigBytes}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n`,
  );
  const listener = Deno.listen({ hostname: HOST, port: 0 });
  console.log(`PORT ${(listener.addr as Deno.NetAddr).port}`);
  const handle = async (c: Deno.Conn) => {
    const buf = new Uint8Array(4096);
    let len = 0;
    try {
      while (true) {
        const n = await c.read(buf.subarray(len));
        if (n === null) return;
        len += n;
        const head = new TextDecoder().decode(buf.subarray(0, len));
        if (!head.includes("\r\n\r\n")) {
          if (len === buf.length) return;
          continue;
        }
        if (head.startsWith("GET /big ")) {
          await writeAll(c, bigHead);
          for (let left = bigBytes; left > 0; left -= CHUNK) {
            await writeAll(c, left >= CHUNK ? body : body.subarray(0, left));
          }
        } else {
          await writeAll(c, tiny);
        }
        return;
      }
    } catch {
      // a client gone mid-response
    } finally {
      try {
        c.close();
      } catch { /* closed */ }
    }
  };
  for await (const c of listener) handle(c);
}

// ---- helpers ----

function freePort(): number {
  const l = Deno.listen({ hostname: HOST, port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForPort(port: number, child: Deno.ChildProcess, what: string, ms = 15_000): Promise<void> {
  let exited = false;
  child.status.then(() => (exited = true));
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${what} exited during start`);
    try {
      (await Deno.connect({ hostname: HOST, port })).close();
      return;
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${what} did not listen on ${HOST}:${port} within ${ms} ms`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function procStatusKb(pid: number, field: string): number | undefined {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** PIDs of `root` and all its descendants, from /proc/<pid>/stat. */
function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      parent.set(Number(e.name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch { /* exited */ }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  }
  return out;
}

function isAlive(pid: number, comm: string): boolean {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/comm`).trim() === comm;
  } catch {
    return false;
  }
}

/**
 * Machine-wide CPU time from /proc/stat in clock ticks (all CPUs): busy is user + nice + system +
 * steal, comparable with processes' utime + stime; irq and softirq time (our own loopback traffic
 * is mostly softirq) counts in the total only.
 */
function machineCpu(): { busy: number; total: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = Deno.readTextFileSync("/proc/stat")
    .split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return {
    busy: user + nice + system + steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
  };
}

/** CPU time (clock ticks) of a process plus its reaped children (curl runs, dante's helpers). */
function processCpu(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
    return f[11] + f[12] + f[13] + f[14];
  } catch {
    return 0;
  }
}

function which(names: string[]): string | undefined {
  return names.find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });
}

// ---- managed processes ----

interface Proc {
  name: string;
  child: Deno.ChildProcess;
  /** process name in /proc/<pid>/comm, to never signal a recycled PID */
  comm: string;
  /** every PID of its tree seen while sampling, with the largest VmHWM (kB) seen for it */
  peakKb: Map<number, number>;
  stderr: string[];
}

const procs: Proc[] = [];

function start(name: string, cmd: string, args: string[], comm: string): Proc {
  const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "piped" }).spawn();
  const p: Proc = { name, child, comm, peakKb: new Map(), stderr: [] };
  // Drain stderr so a chatty peer never blocks on a full pipe; keep the tail for error reports.
  (async () => {
    const dec = new TextDecoder();
    for await (const chunk of child.stderr) {
      p.stderr.push(dec.decode(chunk));
      if (p.stderr.length > 50) p.stderr.shift();
    }
  })().catch(() => {});
  procs.push(p);
  return p;
}

function sample(p: Proc): void {
  for (const pid of processTree(p.child.pid)) {
    const kb = procStatusKb(pid, "VmHWM");
    if (kb !== undefined) p.peakKb.set(pid, Math.max(p.peakKb.get(pid) ?? 0, kb));
  }
}

async function stop(p: Proc): Promise<void> {
  const tree = processTree(p.child.pid).filter((pid) => isAlive(pid, p.comm));
  try {
    p.child.kill("SIGTERM");
  } catch { /* exited */ }
  const timer = sleep(3000).then(() => "timeout");
  if ((await Promise.race([p.child.status, timer])) === "timeout") {
    try {
      p.child.kill("SIGKILL");
    } catch { /* exited */ }
    await p.child.status;
  }
  // Forked helpers (dante's) normally exit with their parent; any left are killed by PID.
  await sleep(100);
  for (const pid of tree.slice(1)) {
    if (isAlive(pid, p.comm)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* exited */ }
    }
  }
}

// ---- measurements ----

async function curlBulk(proxyPort: number | undefined, originPort: number, bytes: number): Promise<number> {
  const args = ["-s", "-o", "/dev/null", "--max-time", "60", "-w", "%{speed_download} %{size_download}"];
  if (proxyPort !== undefined) args.push("-x", `socks5h://${HOST}:${proxyPort}`);
  args.push(`http://${HOST}:${originPort}/big`);
  const out = await new Deno.Command("curl", {
    args,
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(90_000),
  })
    .output();
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

const GREETING = new Uint8Array([5, 1, 0]);
const TINY_REQUEST = new TextEncoder().encode(
  `GET /tiny HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`,
);

/** One SOCKS5 CONNECT (or a direct connection) to the origin; resolves after the whole response. */
async function socksConnect(proxyPort: number | undefined, originPort: number, live: Set<Deno.Conn>) {
  const c = await Deno.connect({ hostname: HOST, port: proxyPort ?? originPort });
  live.add(c);
  if (proxyPort !== undefined) {
    const buf = new Uint8Array(10);
    await writeAll(c, GREETING);
    await readExactly(c, buf, 2);
    if (buf[1] !== 0) throw new Error(`SOCKS5 method ${buf[1]}`);
    await writeAll(c, new Uint8Array([5, 1, 0, 1, 127, 0, 0, 1, originPort >> 8, originPort & 255]));
    await readExactly(c, buf, 10);
    if (buf[1] !== 0) throw new Error(`SOCKS5 reply ${buf[1]}`);
  }
  return c;
}

async function readAll(c: Deno.Conn): Promise<number> {
  const buf = new Uint8Array(4096);
  let total = 0;
  for (let n; (n = await c.read(buf)) !== null;) total += n;
  return total;
}

/** CONNS connections, CONCURRENCY at a time; a watchdog closes whatever is open after `limitMs`. */
async function connRate(
  proxyPort: number | undefined,
  originPort: number,
  conns: number,
  concurrency: number,
  limitMs = 30_000,
): Promise<number> {
  const live = new Set<Deno.Conn>();
  let next = 0;
  let errors = 0;
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    for (const c of live) c.close();
  }, limitMs);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < conns && !timedOut) {
      next++;
      let c: Deno.Conn | undefined;
      try {
        c = await socksConnect(proxyPort, originPort, live);
        await writeAll(c, TINY_REQUEST);
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
  const seconds = (performance.now() - t0) / 1000;
  clearTimeout(watchdog);
  if (timedOut) throw new Error(`Connection run over ${limitMs} ms`);
  if (errors > 0) throw new Error(`${errors} of ${conns} connections failed`);
  return conns / seconds;
}

/** The client half-closes right after its request; the whole response must still arrive. */
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

// ---- main ----

interface Path {
  name: string;
  port?: number;
  proc?: Proc;
  bulk: number[];
  rate: number[];
}

async function main(): Promise<number> {
  const { values: o } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "3" },
      bytes: { type: "string", default: String(1 << 30) },
      conns: { type: "string", default: "2000" },
      concurrency: { type: "string", default: "32" },
      "log-level": { type: "string", default: "warn" },
      "v8-flags": { type: "string" },
    },
  });
  const runs = Number(o.runs), bytes = Number(o.bytes), conns = Number(o.conns);
  const concurrency = Number(o.concurrency);
  const root = new URL("../..", import.meta.url).pathname;
  const danted = which(["/usr/sbin/danted", "/usr/bin/danted"]);
  const microsocks = which(["/usr/bin/microsocks", "/usr/local/bin/microsocks"]);
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-relay-" });
  const paths: Path[] = [];
  const startedAt = performance.now();
  // Other work on the machine skews every figure: measure how busy it is before and during the run.
  const idle0 = machineCpu();
  await sleep(1000);
  const idle1 = machineCpu();
  const busyBefore = (idle1.busy - idle0.busy) / Math.max(1, idle1.total - idle0.total);
  const ownCpu0 = processCpu(Deno.pid);
  let sampler: ReturnType<typeof setInterval> | undefined;
  try {
    const origin = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--origin", String(bytes)],
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const originProc: Proc = { name: "origin", child: origin, comm: "deno", peakKb: new Map(), stderr: [] };
    procs.push(originProc);
    const reader = origin.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const first = await Promise.race([reader.read(), sleep(15_000).then(() => undefined)]);
    const originPort = Number(first?.value?.match(/PORT (\d+)/)?.[1]);
    if (!originPort) throw new Error("The origin did not start");
    reader.releaseLock();
    origin.stdout.cancel().catch(() => {});

    paths.push({ name: "direct", bulk: [], rate: [] });

    const svcPort = freePort();
    const cfg = `${tmp}/svc.json`;
    await Deno.writeTextFile(
      cfg,
      JSON.stringify({
        log: { level: o["log-level"] },
        inbounds: [{ type: "mixed", tag: "mixed-in", listen: HOST, listen_port: svcPort }],
        outbounds: [{ type: "direct", tag: "direct" }],
      }),
    );
    const svc = o["v8-flags"]
      ? start("svc", `${root}scripts/deno`, [
        "run",
        "--allow-all",
        "--unstable-net",
        "--quiet",
        `--v8-flags=${o["v8-flags"]}`,
        `${root}src/cli/main.ts`,
        "run",
        "-c",
        cfg,
      ], "deno")
      : start("svc", `${root}scripts/svc`, ["run", "-c", cfg], "deno");
    await waitForPort(svcPort, svc.child, "svc").catch((e) => {
      throw new Error(`${e.message}: ${svc.stderr.join("")}`);
    });
    paths.push({ name: "svc", port: svcPort, proc: svc, bulk: [], rate: [] });

    if (danted) {
      const port = freePort();
      // PEERS.md's configuration, CONNECT only, loopback destinations only.
      await Deno.writeTextFile(
        `${tmp}/danted.conf`,
        [
          "logoutput: /dev/null",
          `internal: ${HOST} port=${port}`,
          "external: lo",
          "clientmethod: none",
          "socksmethod: none",
          "user.privileged: root",
          "user.unprivileged: nobody",
          "client pass {from: 127.0.0.0/8 to: 0.0.0.0/0}",
          "socks pass {from: 127.0.0.0/8 to: 127.0.0.0/8 command: connect}",
          "socks block {from: 0.0.0.0/0 to: 0.0.0.0/0}",
          "",
        ].join("\n"),
      );
      const p = start("dante", danted, ["-f", `${tmp}/danted.conf`, "-N", "2"], "danted");
      await waitForPort(port, p.child, "danted").catch((e) => {
        throw new Error(`${e.message}: ${p.stderr.join("")}`);
      });
      paths.push({ name: "dante", port, proc: p, bulk: [], rate: [] });
    }
    if (microsocks) {
      const port = freePort();
      const p = start("microsocks", microsocks, ["-i", HOST, "-p", String(port)], "microsocks");
      await waitForPort(port, p.child, "microsocks");
      paths.push({ name: "microsocks", port, proc: p, bulk: [], rate: [] });
    }
    const missing = [danted ? "" : "dante-server", microsocks ? "" : "microsocks"].filter(Boolean);
    if (missing.length) console.log(`missing: ${missing.join(", ")} (scripts/test_deps installs them)`);

    sampler = setInterval(() => procs.forEach(sample), 200);
    console.log(
      `Deno ${Deno.version.deno}; ${navigator.hardwareConcurrency} CPUs; origin ${HOST}:${originPort}; ` +
        `bulk ${bytes / (1 << 20)} MiB; ${conns} connections × ${concurrency}; ${runs} runs, median; ` +
        `svc log level ${o["log-level"]}${o["v8-flags"] ? `, --v8-flags=${o["v8-flags"]}` : ""}`,
    );

    // Warm-up: JIT and socket paths of every proxy, not measured.
    for (const p of paths) await connRate(p.port, originPort, 300, concurrency);

    // svc and dante run back to back in every run (the order flips each run), so each run's
    // svc/dante ratio compares them under the same load; PASS/FAIL uses the median of those.
    for (let r = 0; r < runs; r++) {
      const order = r % 2 === 0 ? paths : [...paths].reverse();
      for (const p of order) p.bulk.push(await curlBulk(p.port, originPort, bytes));
      for (const p of order) p.rate.push(await connRate(p.port, originPort, conns, concurrency));
      console.log(
        `run ${r + 1}: ` +
          paths.map((p) => `${p.name} ${p.bulk[r].toFixed(0)} MiB/s ${p.rate[r].toFixed(0)} conn/s`).join(
            " | ",
          ),
      );
    }
    const svcHalfClose = await halfClose(svcPort, originPort);
    procs.forEach(sample);
    // CPU used by everything else on the machine while the bench ran.
    const idle2 = machineCpu();
    const ownCpu = processCpu(Deno.pid) - ownCpu0 +
      procs.reduce((sum, p) => sum + processTree(p.child.pid).reduce((s, pid) => s + processCpu(pid), 0), 0);
    const otherLoad = Math.max(0, idle2.busy - idle1.busy - ownCpu) / Math.max(1, idle2.total - idle1.total);

    // ---- summary ----
    const get = (name: string) => paths.find((p) => p.name === name);
    const bulk = (name: string) => median(get(name)?.bulk ?? []);
    const rate = (name: string) => median(get(name)?.rate ?? []);
    const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : "n/a");
    /** Median over runs of svc's figure divided by `peer`'s figure in the same run. */
    const paired = (peer: string, key: "bulk" | "rate") => {
      const s = get("svc")?.[key] ?? [], q = get(peer)?.[key] ?? [];
      return q.length ? median(s.map((v, i) => v / q[i])) : NaN;
    };
    const rss = (p?: Proc) => {
      if (!p || p.peakKb.size === 0) return "";
      const kb = [...p.peakKb.values()];
      const sum = kb.reduce((a, b) => a + b, 0);
      return kb.length === 1
        ? `${(sum / 1024).toFixed(1)} MiB`
        : `${(sum / 1024).toFixed(1)} MiB (sum of ${kb.length} procs, largest ${
          (Math.max(...kb) / 1024).toFixed(1)
        })`;
    };
    console.log("\nsummary (median of %d runs)", runs);
    console.log(`${"path".padEnd(11)}${"bulk MiB/s".padStart(11)}${"conn/s".padStart(9)}  peak RSS (VmHWM)`);
    for (const p of paths) {
      console.log(
        `${p.name.padEnd(11)}${median(p.bulk).toFixed(0).padStart(11)}${
          median(p.rate).toFixed(0).padStart(9)
        }  ${rss(p.proc)}`,
      );
    }
    console.log(
      `ratios of medians   bulk svc/dante ${ratio(bulk("svc"), bulk("dante"))}, svc/microsocks ${
        ratio(bulk("svc"), bulk("microsocks"))
      }, svc/direct ${ratio(bulk("svc"), bulk("direct"))}; conn/s svc/dante ${
        ratio(rate("svc"), rate("dante"))
      }`,
    );
    console.log(
      `per-run ratios, median   bulk svc/dante ${paired("dante", "bulk").toFixed(2)}, svc/microsocks ${
        paired("microsocks", "bulk").toFixed(2)
      }, svc/direct ${paired("direct", "bulk").toFixed(2)}; conn/s svc/dante ${
        paired("dante", "rate").toFixed(2)
      }`,
    );
    console.log(
      `other work on the machine: ${(busyBefore * 100).toFixed(0)}% of the CPUs before start, ${
        (otherLoad * 100).toFixed(0)
      }% during the bench${otherLoad > 0.15 ? " (figures are noisy: run again when it is quiet)" : ""}`,
    );
    console.log(
      `svc half-close (client FIN right after its request): ${svcHalfClose ? "ok" : "response lost"}`,
    );
    const results = [
      ["bulk svc ≥ 1.0 × dante (per-run ratio, median)", paired("dante", "bulk") >= 1],
      ["conn/s svc ≥ 1.0 × dante (per-run ratio, median)", paired("dante", "rate") >= 1],
    ] as const;
    for (const [what, ok] of results) console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
    console.log(`(bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s)`);
    return results.every(([, ok]) => ok) && svcHalfClose ? 0 : 1;
  } finally {
    clearInterval(sampler);
    for (const p of procs.reverse()) await stop(p);
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (Deno.args[0] === "--origin") {
  await serveOrigin(Number(Deno.args[1] ?? 1 << 30));
} else {
  Deno.exit(await main());
}
