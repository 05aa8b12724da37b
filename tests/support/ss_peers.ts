/**
 * Real shadowsocks peers for tests (PEERS.md): shadowsocks-libev `ss-server` and `ss-local`
 * (optionally with a SIP003 plugin: simple-obfs, ss-v2ray-plugin) and v2ray 4.34 with a
 * shadowsocks inbound. Each runs on free loopback ports from its own temporary folder and is
 * stopped by its own PID when disposed.
 */
import { freePort } from "./engine.ts";
import { waitForPort } from "./peers.ts";

export interface SsPeer {
  /** ss-server / v2ray: the server port. ss-local: its SOCKS5 port. */
  port: number;
  dir: string;
  /** What the peer printed so far (stdout and stderr). */
  output(): string;
  [Symbol.asyncDispose](): Promise<void>;
}

function need(binary: string): string {
  for (const dir of ["/usr/bin", "/usr/sbin", "/usr/local/bin"]) {
    try {
      Deno.statSync(`${dir}/${binary}`);
      return `${dir}/${binary}`;
    } catch { /* next */ }
  }
  throw new Error(`Test peer "${binary}" is not installed; run scripts/test_deps`);
}

async function spawn(bin: string, args: string[], port: number, dir: string): Promise<SsPeer> {
  const child = new Deno.Command(bin, { args, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  let text = "";
  const d = new TextDecoder();
  const collect = async (s: ReadableStream<Uint8Array>) => {
    for await (const c of s) text += d.decode(c);
  };
  const output = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const dispose = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 3000);
    await child.status;
    clearTimeout(timer);
    await output.catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    await Promise.race([
      waitForPort(port),
      child.status.then(async (s) => {
        await output.catch(() => {});
        throw new Error(`${bin} exited with ${s.code} before listening: ${text}`);
      }),
    ]);
  } catch (e) {
    await dispose();
    throw e;
  }
  return { port, dir, output: () => text, [Symbol.asyncDispose]: dispose };
}

export interface SsOptions {
  method: string;
  password: string;
  /** SIP003 plugin executable and its options, e.g. "obfs-server" with "obfs=http". */
  plugin?: string;
  pluginOpts?: string;
}

/** shadowsocks-libev `ss-server`, TCP and UDP, egress bound to loopback. */
export async function startSsServer(o: SsOptions): Promise<SsPeer> {
  const bin = need("ss-server");
  if (o.plugin) need(o.plugin);
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "svc-ss-server-" });
  await Deno.writeTextFile(
    `${dir}/config.json`,
    JSON.stringify({
      server: "127.0.0.1",
      server_port: port,
      local_address: "127.0.0.1",
      password: o.password,
      method: o.method,
      timeout: 60,
      mode: "tcp_and_udp",
      ...(o.plugin ? { plugin: o.plugin, plugin_opts: o.pluginOpts ?? "" } : {}),
    }),
  );
  return await spawn(bin, ["-c", `${dir}/config.json`, "-u"], port, dir);
}

/** shadowsocks-libev `ss-local`: a SOCKS5 port (TCP and UDP ASSOCIATE) towards `serverPort`. */
export async function startSsLocal(o: SsOptions & { serverPort: number }): Promise<SsPeer> {
  const bin = need("ss-local");
  if (o.plugin) need(o.plugin);
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "svc-ss-local-" });
  await Deno.writeTextFile(
    `${dir}/config.json`,
    JSON.stringify({
      server: "127.0.0.1",
      server_port: o.serverPort,
      local_address: "127.0.0.1",
      local_port: port,
      password: o.password,
      method: o.method,
      timeout: 60,
      mode: "tcp_and_udp",
      ...(o.plugin ? { plugin: o.plugin, plugin_opts: o.pluginOpts ?? "" } : {}),
    }),
  );
  return await spawn(bin, ["-c", `${dir}/config.json`, "-u"], port, dir);
}

/** v2ray 4.34 with one shadowsocks inbound (TCP and UDP) and a freedom outbound. */
export async function startV2raySsServer(o: SsOptions): Promise<SsPeer> {
  const bin = need("v2ray");
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "svc-v2ray-ss-" });
  await Deno.writeTextFile(
    `${dir}/config.json`,
    JSON.stringify({
      log: { loglevel: "warning" },
      inbounds: [{
        listen: "127.0.0.1",
        port,
        protocol: "shadowsocks",
        settings: { method: o.method, password: o.password, network: "tcp,udp" },
      }],
      outbounds: [{ protocol: "freedom" }],
    }),
  );
  return await spawn(bin, ["-config", `${dir}/config.json`], port, dir);
}
