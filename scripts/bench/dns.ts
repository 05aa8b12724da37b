/**
 * DNS service benchmark (not a test): svc's DNS listener against dnsmasq over loopback. Run from
 * the repository root:
 *
 *   ./scripts/deno run -A scripts/bench/dns.ts [--runs 5] [--queries 200000] [--inflight 128]
 *     [--sockets 4] [--names 256] [--cold 1000] [--client dnsperf|deno] [--log-level warn]
 *     [--v8-flags FLAGS]
 *
 * Peers: one dnsmasq (`address=/test.lan/…`, so it answers every `*.test.lan` from its own
 * configuration: the "cached" peer) and two svc processes (`scripts/svc run -c`), each a `direct`
 * inbound whose traffic a `hijack-dns` rule sends to the DNS subsystem, upstream the dnsmasq: one
 * with the cache on, one with `dns.disable_cache: true`. All on 127.0.0.1 free ports.
 *  1. Cached qps: the same load client for both targets: QUERIES queries (A and AAAA, in turn)
 *     over SOCKETS sockets, INFLIGHT in flight in all, names drawn from NAMES names that a warm-up
 *     pass put into svc's cache; a query unanswered after 1 s counts as lost. The client is
 *     dnsperf (C, Debian package `dnsperf`) when installed: a client in Deno tops out near 30k qps
 *     on this machine, well under what dnsmasq serves, and would hide the gap. `--client deno`
 *     (the fallback when dnsperf is missing) uses the in-process Deno client instead.
 *  2. Cold overhead: COLD distinct names, one query at a time, through the cache-less svc and to
 *     dnsmasq directly; median and p99 latency.
 * Runs are interleaved (every measurement of run 1, then run 2 …, the order flipping each run);
 * each figure is the median over RUNS, and ratios are the medians of the per-run ratios. Target:
 * svc qps ≥ 1.0 × dnsmasq (exit code 1 on FAIL). Everything started here is stopped by PID and the
 * temp dir removed, even on errors.
 */
import { parseArgs } from "node:util";

const HOST = "127.0.0.1"; // every socket here is loopback
const root = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

const args = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    queries: { type: "string", default: "200000" },
    client: { type: "string" },
    inflight: { type: "string", default: "128" },
    sockets: { type: "string", default: "4" },
    names: { type: "string", default: "256" },
    cold: { type: "string", default: "1000" },
    "log-level": { type: "string", default: "warn" },
    "v8-flags": { type: "string", default: "" },
  },
}).values;
const RUNS = Number(args.runs);
const QUERIES = Number(args.queries);
const INFLIGHT = Number(args.inflight);
const SOCKETS = Math.max(1, Math.min(Number(args.sockets), INFLIGHT));
const NAMES = Number(args.names);
const COLD = Number(args.cold);
const LOST_AFTER_MS = 1000;
const DNSPERF = "/usr/bin/dnsperf";
const hasDnsperf = (() => {
  try {
    return Deno.statSync(DNSPERF).isFile;
  } catch {
    return false;
  }
})();
const CLIENT = args.client ?? (hasDnsperf ? "dnsperf" : "deno");
if (CLIENT !== "dnsperf" && CLIENT !== "deno") {
  throw new Error(`--client: "dnsperf" or "deno", not "${CLIENT}"`);
}
if (CLIENT === "dnsperf" && !hasDnsperf) throw new Error(`--client dnsperf: ${DNSPERF} is missing`);
const LOAD_DEADLINE_MS = 120_000;

// ---- DNS wire (queries only; answers are checked by id and rcode) ----

const enc = new TextEncoder();

function query(name: string, id: number, type = 1): Uint8Array {
  const labels = name.split(".").map((l) => enc.encode(l));
  const qlen = labels.reduce((n, l) => n + 1 + l.length, 1);
  const b = new Uint8Array(12 + qlen + 4);
  b[0] = id >> 8, b[1] = id & 0xff, b[2] = 0x01; // RD
  b[5] = 1; // QDCOUNT
  let off = 12;
  for (const l of labels) {
    b[off++] = l.length;
    b.set(l, off);
    off += l.length;
  }
  off++; // root
  b[off + 1] = type, b[off + 3] = 1; // QTYPE, QCLASS IN
  return b;
}

const idOf = (b: Uint8Array) => (b[0] << 8) | b[1];
const answered = (b: Uint8Array) => b.length >= 12 && (b[2] & 0x80) !== 0 && (b[3] & 0x0f) === 0 && b[7] > 0;

/** One query, one answer: the latency in ms, or undefined when none came within `ms`. */
async function once(
  sock: Deno.DatagramConn,
  port: number,
  name: string,
  ms = LOST_AFTER_MS,
): Promise<number | undefined> {
  const id = (Math.random() * 0x10000) | 0;
  const t0 = performance.now();
  await sock.send(query(name, id), { transport: "udp", hostname: HOST, port });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((r) => timer = setTimeout(() => r(undefined), ms));
  try {
    while (true) {
      const got = await Promise.race([sock.receive(), timeout]);
      if (!got) return undefined;
      if (idOf(got[0]) === id && answered(got[0])) return performance.now() - t0;
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The load client: `total` queries over `sockets` sockets with `inflight` outstanding in all.
 * Each socket keeps its share of the window full: an answer (matched by id) sends the next query.
 */
async function load(
  port: number,
  names: string[],
  total: number,
): Promise<{ qps: number; lost: number; done: number }> {
  const target: Deno.NetAddr = { transport: "udp", hostname: HOST, port };
  const perSocket = Math.ceil(INFLIGHT / SOCKETS);
  let sent = 0, done = 0, lost = 0;
  const t0 = performance.now();
  const deadline = t0 + LOAD_DEADLINE_MS;
  const socks = Array.from(
    { length: SOCKETS },
    () => Deno.listenDatagram({ transport: "udp", hostname: HOST, port: 0 }),
  );
  const wires = names.map((n) => query(n, 0));
  const workers = socks.map(async (sock) => {
    const out = new Map<number, number>(); // id -> sent at
    const next = (): boolean => {
      if (sent >= total || performance.now() > deadline) return false;
      let id;
      do id = (Math.random() * 0x10000) | 0; while (out.has(id));
      const w = wires[sent++ % wires.length].slice();
      w[0] = id >> 8, w[1] = id & 0xff;
      out.set(id, performance.now());
      sock.send(w, target).catch(() => {});
      return true;
    };
    for (let i = 0; i < perSocket; i++) if (!next()) break;
    const sweeper = setInterval(() => {
      const now = performance.now();
      for (const [id, at] of out) {
        if (now - at > LOST_AFTER_MS) {
          out.delete(id);
          lost++;
          next();
        }
      }
      if (out.size === 0) sock.close(); // nothing left to wait for: ends receive()
    }, 100);
    try {
      while (out.size > 0) {
        let got;
        try {
          got = await sock.receive();
        } catch {
          break; // closed by the sweeper
        }
        const id = idOf(got[0]);
        if (!out.delete(id)) continue; // late answer to a query counted lost
        if (answered(got[0])) done++;
        else lost++;
        next();
      }
    } finally {
      clearInterval(sweeper);
      try {
        sock.close();
      } catch { /* closed */ }
    }
  });
  await Promise.all(workers);
  const secs = (performance.now() - t0) / 1000;
  return { qps: done / secs, lost, done };
}

/** The same load through dnsperf: `total` queries cycling over `namesFile` (A and AAAA lines). */
async function loadDnsperf(
  port: number,
  namesFile: string,
  lines: number,
  total: number,
): Promise<{ qps: number; lost: number; done: number }> {
  const out = await new Deno.Command(DNSPERF, {
    args: [
      ...["-s", HOST, "-p", String(port), "-d", namesFile],
      ...["-n", String(Math.max(1, Math.ceil(total / lines))), "-l", String(LOAD_DEADLINE_MS / 1000)],
      ...["-q", String(INFLIGHT), "-c", String(SOCKETS), "-t", String(LOST_AFTER_MS / 1000)],
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const num = (label: string) => {
    const m = text.match(new RegExp(`${label}:\\s+([\\d.]+)`));
    if (!m) throw new Error(`dnsperf printed no "${label}": ${text}${new TextDecoder().decode(out.stderr)}`);
    return Number(m[1]);
  };
  return { qps: num("Queries per second"), lost: num("Queries lost"), done: num("Queries completed") };
}

async function cold(port: number, prefix: string): Promise<{ median: number; p99: number; lost: number }> {
  const sock = Deno.listenDatagram({ transport: "udp", hostname: HOST, port: 0 });
  const times: number[] = [];
  let lost = 0;
  try {
    for (let i = 0; i < COLD; i++) {
      const t = await once(sock, port, `${prefix}-${i}.cold.test.lan`);
      if (t === undefined) lost++;
      else times.push(t);
    }
  } finally {
    sock.close();
  }
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), p99: quantile(times, 0.99), lost };
}

/** CPU time (ms) of a process: utime + stime from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
    return (f[11] + f[12]) * 10;
  } catch {
    return 0;
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

const median = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);

// ---- managed processes ----

interface Proc {
  name: string;
  child: Deno.ChildProcess;
  stderr: string[];
}

const procs: Proc[] = [];

function start(name: string, cmd: string, argv: string[]): Proc {
  const child = new Deno.Command(cmd, { args: argv, stdin: "null", stdout: "null", stderr: "piped" }).spawn();
  const p: Proc = { name, child, stderr: [] };
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

async function stopAll(): Promise<void> {
  await Promise.all(procs.map(async (p) => {
    try {
      p.child.kill("SIGTERM");
    } catch { /* gone */ }
    const t = setTimeout(() => {
      try {
        p.child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 3000);
    await p.child.status;
    clearTimeout(t);
  }));
}

/** A port free for both TCP and UDP on loopback. */
function freePort(): number {
  for (let i = 0; i < 50; i++) {
    const l = Deno.listen({ hostname: HOST, port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    try {
      Deno.listenDatagram({ transport: "udp", hostname: HOST, port }).close();
      return port;
    } catch { /* taken for UDP */ }
  }
  throw new Error("no free port");
}

/** Waits until `port` answers a DNS query over UDP. */
async function waitDns(p: Proc, port: number, ms = 30_000): Promise<void> {
  const sock = Deno.listenDatagram({ transport: "udp", hostname: HOST, port: 0 });
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const exited = await Promise.race([p.child.status.then(() => true), Promise.resolve(false)]);
      if (exited) break;
      if (await once(sock, port, "ready.test.lan", 250) !== undefined) return;
    }
  } finally {
    sock.close();
  }
  throw new Error(`${p.name} did not answer DNS on ${HOST}:${port}: ${p.stderr.join("")}`);
}

function svcConfig(port: number, upstream: number, disableCache: boolean) {
  return {
    log: { level: args["log-level"] },
    dns: {
      servers: [{ type: "udp", tag: "lan", server: HOST, server_port: upstream }],
      ...(disableCache ? { disable_cache: true } : {}),
    },
    inbounds: [{ type: "direct", tag: "dns-in", listen: HOST, listen_port: port }],
    outbounds: [{ type: "direct", tag: "direct" }],
    route: { rules: [{ inbound: "dns-in", action: "hijack-dns" }] },
  };
}

async function startSvc(tmp: string, name: string, upstream: number, disableCache: boolean) {
  const port = freePort();
  const conf = `${tmp}/${name}.json`;
  await Deno.writeTextFile(conf, JSON.stringify(svcConfig(port, upstream, disableCache), null, 2));
  const p = args["v8-flags"]
    ? start(name, `${root}/scripts/deno`, [
      "run",
      "--allow-all",
      "--unstable-net",
      "--quiet",
      `--v8-flags=${args["v8-flags"]}`,
      `${root}/src/cli/main.ts`,
      "run",
      "-c",
      conf,
    ])
    : start(name, `${root}/scripts/svc`, ["run", "-c", conf]);
  await waitDns(p, port);
  return { port, pid: p.child.pid };
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

async function main(): Promise<number> {
  const tmp = await Deno.makeTempDir({ prefix: "svc-bench-dns-" });
  try {
    const dnsmasqPort = freePort();
    await Deno.writeTextFile(
      `${tmp}/dnsmasq.conf`,
      [
        `port=${dnsmasqPort}`,
        `listen-address=${HOST}`,
        "bind-interfaces",
        "no-resolv",
        "no-hosts",
        "user=root",
        `pid-file=${tmp}/dnsmasq.pid`,
        "local-ttl=3600", // its own answers carry a TTL, so svc may cache them (default 0: never)
        "address=/test.lan/127.0.0.1",
        "address=/test.lan/::1",
        "",
      ].join("\n"),
    );
    const dnsmasq = start("dnsmasq", "/usr/sbin/dnsmasq", ["-k", `--conf-file=${tmp}/dnsmasq.conf`]);
    await waitDns(dnsmasq, dnsmasqPort);
    const svc = await startSvc(tmp, "svc-cached", dnsmasqPort, false);
    const svcPort = svc.port;
    const svcColdPort = (await startSvc(tmp, "svc-nocache", dnsmasqPort, true)).port;
    const pids: Record<string, number> = { svc: svc.pid, dnsmasq: dnsmasq.child.pid };

    const names = Array.from({ length: NAMES }, (_, i) => `host${i}.test.lan`);
    const namesFile = `${tmp}/names.txt`;
    await Deno.writeTextFile(namesFile, names.flatMap((n) => [`${n} A`, `${n} AAAA`]).join("\n") + "\n");
    const loadWith = (port: number, total: number) =>
      CLIENT === "dnsperf" ? loadDnsperf(port, namesFile, names.length * 2, total) : load(port, names, total);
    // Warm-up: fills svc's cache and lets both JITs settle.
    await loadWith(svcPort, Math.min(QUERIES, 20_000));
    await loadWith(dnsmasqPort, Math.min(QUERIES, 20_000));
    await cold(svcColdPort, "warm");
    await cold(dnsmasqPort, "warm");

    const qps = { svc: [] as number[], dnsmasq: [] as number[], ratio: [] as number[] };
    const cpu = { svc: [] as number[], dnsmasq: [] as number[] }; // CPU µs per answered query
    const lat = {
      svcMed: [] as number[],
      svcP99: [] as number[],
      dmMed: [] as number[],
      dmP99: [] as number[],
      medRatio: [] as number[],
      p99Ratio: [] as number[],
    };
    let lost = 0;
    for (let run = 1; run <= RUNS; run++) {
      const order = run % 2 === 1 ? ["svc", "dnsmasq"] : ["dnsmasq", "svc"];
      const r: Record<string, number> = {};
      for (const who of order) {
        const before = cpuMs(pids[who]);
        const got = await loadWith(who === "svc" ? svcPort : dnsmasqPort, QUERIES);
        cpu[who as "svc"].push(((cpuMs(pids[who]) - before) * 1000) / Math.max(1, got.done));
        r[who] = got.qps;
        lost += got.lost;
      }
      qps.svc.push(r.svc);
      qps.dnsmasq.push(r.dnsmasq);
      qps.ratio.push(r.svc / r.dnsmasq);
      const c: Record<string, { median: number; p99: number }> = {};
      for (const who of order) {
        const got = await cold(who === "svc" ? svcColdPort : dnsmasqPort, `r${run}-${who}`);
        c[who] = got;
        lost += got.lost;
      }
      lat.svcMed.push(c.svc.median);
      lat.svcP99.push(c.svc.p99);
      lat.dmMed.push(c.dnsmasq.median);
      lat.dmP99.push(c.dnsmasq.p99);
      lat.medRatio.push(c.svc.median / c.dnsmasq.median);
      lat.p99Ratio.push(c.svc.p99 / c.dnsmasq.p99);
      console.log(
        `run ${run}: cached qps svc ${fmt(r.svc)} dnsmasq ${fmt(r.dnsmasq)} (×${
          (r.svc / r.dnsmasq).toFixed(2)
        }); ` +
          `cold ms svc ${c.svc.median.toFixed(3)}/${c.svc.p99.toFixed(3)} dnsmasq ` +
          `${c.dnsmasq.median.toFixed(3)}/${c.dnsmasq.p99.toFixed(3)} (median/p99)`,
      );
    }
    const ratio = median(qps.ratio);
    const pass = ratio >= 1.0;
    console.log("");
    console.log(
      `DNS bench (client ${CLIENT}): ${RUNS} runs, ${
        fmt(QUERIES)
      } queries × ${INFLIGHT} in flight over ${SOCKETS} sockets, ` +
        `${NAMES} names; cold: ${fmt(COLD)} distinct names one at a time`,
    );
    console.log(`cached qps   svc ${fmt(median(qps.svc))}   dnsmasq ${fmt(median(qps.dnsmasq))}`);
    console.log(
      `cached CPU   svc ${median(cpu.svc).toFixed(1)} µs/query   dnsmasq ${
        median(cpu.dnsmasq).toFixed(1)
      } µs/query`,
    );
    console.log(`cached ratio svc/dnsmasq ×${ratio.toFixed(2)} (target ≥ 1.00): ${pass ? "PASS" : "FAIL"}`);
    console.log(
      `cold median  svc ${median(lat.svcMed).toFixed(3)} ms   dnsmasq ${median(lat.dmMed).toFixed(3)} ms   ` +
        `ratio ×${median(lat.medRatio).toFixed(2)}`,
    );
    console.log(
      `cold p99     svc ${median(lat.svcP99).toFixed(3)} ms   dnsmasq ${median(lat.dmP99).toFixed(3)} ms   ` +
        `ratio ×${median(lat.p99Ratio).toFixed(2)}`,
    );
    console.log(`lost queries (no answer within ${LOST_AFTER_MS} ms, all runs): ${lost}`);
    return pass ? 0 : 1;
  } finally {
    await stopAll();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(e);
  await stopAll();
}
Deno.exit(code);
