/**
 * Real third-party peers for whole-engine tests (see shared/PEERS.md): dante, microsocks and
 * squid, each on a free loopback port, stopped by its own PID when disposed.
 */
import { freePort } from "./engine.ts";

export interface Peer {
  port: number;
  /** The peer's temporary folder (its configuration and logs). */
  dir: string;
  /** The peer's log of served requests (dante: dante.log, squid: access.log); "" when none. */
  log(): string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Resolves once something accepts TCP on hostname:port; throws after `ms`. */
export async function waitForPort(port: number, hostname = "127.0.0.1", ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const c = await Deno.connect({ hostname, port });
      c.close();
      return;
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`Nothing listens on ${hostname}:${port} after ${ms} ms: ${last}`);
}

function need(binary: string): string {
  for (const dir of ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) {
    try {
      Deno.statSync(`${dir}/${binary}`);
      return `${dir}/${binary}`;
    } catch { /* next */ }
  }
  throw new Error(`Test peer "${binary}" is not installed; run scripts/test_deps`);
}

/** Starts `cmd`, waits for its port, and stops it (SIGTERM, then SIGKILL after `killAfterMs`). */
async function spawnPeer(
  cmd: string,
  args: string[],
  port: number,
  dir: string,
  logName = "",
  killAfterMs = 3000,
): Promise<Peer> {
  const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "piped" }).spawn();
  const stderr = new Response(child.stderr).text();
  const dispose = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, killAfterMs);
    await child.status;
    clearTimeout(timer);
    await stderr;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    await Promise.race([
      waitForPort(port),
      child.status.then(async (s) => {
        const log = logName ? await Deno.readTextFile(`${dir}/${logName}`).catch(() => "") : "";
        throw new Error(`${cmd} exited with ${s.code} before listening: ${await stderr}${log}`);
      }),
    ]);
  } catch (e) {
    await dispose();
    throw e;
  }
  const log = () => {
    try {
      return Deno.readTextFileSync(`${dir}/${logName}`);
    } catch {
      return "";
    }
  };
  return { port, dir, log, [Symbol.asyncDispose]: dispose };
}

async function peerDir(name: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `svc-${name}-` });
  // Daemons drop privileges (dante to nobody, squid to proxy) and still write here.
  await Deno.chmod(dir, 0o777);
  return dir;
}

/** dante (`danted`) with no authentication, allowing loopback destinations only (PEERS.md). */
export async function startDante(): Promise<Peer> {
  const bin = need("danted");
  const port = freePort();
  const dir = await peerDir("dante");
  const conf = `${dir}/sockd.conf`;
  await Deno.writeTextFile(
    conf,
    [
      `logoutput: ${dir}/dante.log`,
      `internal: 127.0.0.1 port=${port}`,
      "external: lo",
      "clientmethod: none",
      "socksmethod: none",
      "user.privileged: root",
      "user.unprivileged: nobody",
      "client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }",
      "socks pass {",
      "  from: 127.0.0.0/8 to: 127.0.0.0/8",
      "  command: bind connect udpassociate bindreply udpreply",
      "  log: connect",
      "}",
      "socks block { from: 0.0.0.0/0 to: 0.0.0.0/0 }",
      "",
    ].join("\n"),
  );
  return await spawnPeer(bin, ["-f", conf, "-N", "2", "-p", `${dir}/sockd.pid`], port, dir, "dante.log");
}

/** microsocks, optionally with a username and password. */
export async function startMicrosocks(auth?: { user: string; pass: string }): Promise<Peer> {
  const bin = need("microsocks");
  const port = freePort();
  const dir = await peerDir("microsocks");
  const args = ["-i", "127.0.0.1", "-p", String(port)];
  if (auth) args.push("-u", auth.user, "-P", auth.pass);
  return await spawnPeer(bin, args, port, dir);
}

/** squid as a plain HTTP proxy (GET and CONNECT) for loopback clients, no cache. */
export async function startSquid(): Promise<Peer> {
  const bin = need("squid");
  const port = freePort();
  const dir = await peerDir("squid");
  const conf = `${dir}/squid.conf`;
  await Deno.writeTextFile(
    conf,
    [
      `http_port 127.0.0.1:${port}`,
      "acl localnet src 127.0.0.1/32 ::1",
      "http_access allow localnet",
      "http_access deny all",
      "cache deny all",
      "pinger_enable off",
      "udp_incoming_address 127.0.0.1",
      "icp_port 0",
      "htcp_port 0",
      "shutdown_lifetime 0 seconds",
      "visible_hostname svc-test",
      `pid_filename ${dir}/squid.pid`,
      `access_log stdio:${dir}/access.log`,
      `cache_log ${dir}/cache.log`,
      `coredump_dir ${dir}`,
      "",
    ].join("\n"),
  );
  return await spawnPeer(bin, ["-N", "-f", conf], port, dir, "access.log");
}

export interface DnsmasqOptions {
  /** Record lines replacing the default `test.lan` ones (e.g. `address=/corp.lan/10.0.0.7`). */
  records?: string[];
  /** TTL of its own answers (`local-ttl`); dnsmasq's default 0 means a cache never keeps them. */
  localTtl?: number;
}

/** dnsmasq answering `test.lan` names on loopback (PEERS.md), UDP and TCP on one port. */
export async function startDnsmasq(options: DnsmasqOptions = {}): Promise<Peer> {
  const bin = need("dnsmasq");
  const port = freePort();
  const dir = await peerDir("dnsmasq");
  const conf = `${dir}/dnsmasq.conf`;
  await Deno.writeTextFile(
    conf,
    [
      `port=${port}`,
      "listen-address=127.0.0.1",
      "bind-interfaces",
      "no-resolv",
      "no-hosts",
      "user=root",
      `pid-file=${dir}/dnsmasq.pid`,
      ...(options.localTtl === undefined ? [] : [`local-ttl=${options.localTtl}`]),
      ...(options.records ?? [
        "address=/test.lan/127.0.0.1",
        "address=/test.lan/::1",
        'txt-record=txt.test.lan,"hello dns"',
      ]),
      "",
    ].join("\n"),
  );
  return await spawnPeer(bin, ["-k", `--conf-file=${conf}`], port, dir);
}
