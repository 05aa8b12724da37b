/**
 * v2ray 4.34 (Debian's `v2ray`) as a vmess/vless peer for tests (PEERS.md "v2ray server" and
 * "v2ray client"): a server with one inbound and a freedom outbound, or a client with one socks
 * inbound (UDP on) and one outbound. Each runs from its own temporary folder on free loopback ports
 * and is stopped by its own PID when disposed.
 */
import { freePort } from "./engine.ts";
import { waitForPort } from "./peers.ts";

export interface V2rayPeer {
  /** The server's inbound port, or the client's SOCKS5 port. */
  port: number;
  dir: string;
  output(): string;
  [Symbol.asyncDispose](): Promise<void>;
}

export const V2RAY_BIN = "/usr/bin/v2ray";

/** Runs v2ray with `config`, waiting until `port` accepts. */
export async function startV2ray(config: unknown, port: number): Promise<V2rayPeer> {
  const dir = await Deno.makeTempDir({ prefix: "svc-v2ray-" });
  await Deno.writeTextFile(`${dir}/config.json`, JSON.stringify(config, null, 1));
  const child = new Deno.Command(V2RAY_BIN, {
    args: ["-config", `${dir}/config.json`],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const d = new TextDecoder();
  const collect = async (s: ReadableStream<Uint8Array>) => {
    for await (const c of s) if (text.length < 1_000_000) text += d.decode(c);
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
    await output;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    await Promise.race([
      waitForPort(port),
      child.status.then(async (s) => {
        await output;
        throw new Error(`v2ray exited with ${s.code} before listening: ${text}`);
      }),
    ]);
  } catch (e) {
    await dispose();
    throw e;
  }
  return { port, dir, output: () => text, [Symbol.asyncDispose]: dispose };
}

export interface StreamOptions {
  /** Directory holding leaf.pem/leaf.key (server) — TLS on when given. */
  certs?: string;
  network?: "tcp" | "ws" | "h2";
  path?: string;
}

function streamSettings(o: StreamOptions, server: boolean): Record<string, unknown> {
  const s: Record<string, unknown> = { network: o.network ?? "tcp" };
  if (o.certs) {
    s.security = "tls";
    s.tlsSettings = server
      ? { certificates: [{ certificateFile: `${o.certs}/leaf.pem`, keyFile: `${o.certs}/leaf.key` }] }
      : { serverName: "localhost", allowInsecure: true };
  }
  if (o.network === "ws") s.wsSettings = { path: o.path ?? "/ws" };
  if (o.network === "h2") s.httpSettings = { path: o.path ?? "/h2", host: ["localhost"] };
  return s;
}

/** A v2ray server: `protocol` (vmess or vless) inbound for `uuid`, freedom outbound. */
export async function startV2rayServer(
  protocol: "vmess" | "vless",
  uuid: string,
  stream: StreamOptions = {},
): Promise<V2rayPeer> {
  const port = freePort();
  const settings = protocol === "vmess"
    ? { clients: [{ id: uuid, alterId: 0 }] }
    : { clients: [{ id: uuid }], decryption: "none" };
  return await startV2ray({
    log: { loglevel: "warning" },
    inbounds: [{
      listen: "127.0.0.1",
      port,
      protocol,
      settings,
      streamSettings: streamSettings(stream, true),
    }],
    outbounds: [{ protocol: "freedom" }],
  }, port);
}

/** A v2ray client: socks (UDP on) on a free port → `protocol` outbound to 127.0.0.1:`serverPort`. */
export async function startV2rayClient(
  protocol: "vmess" | "vless",
  uuid: string,
  serverPort: number,
  o: StreamOptions & { security?: string } = {},
): Promise<V2rayPeer> {
  const port = freePort();
  const user = protocol === "vmess"
    ? { id: uuid, alterId: 0, security: o.security ?? "auto" }
    : { id: uuid, encryption: "none" };
  return await startV2ray({
    log: { loglevel: "warning" },
    inbounds: [{
      listen: "127.0.0.1",
      port,
      protocol: "socks",
      settings: { auth: "noauth", udp: true, ip: "127.0.0.1" },
    }],
    outbounds: [{
      protocol,
      settings: { vnext: [{ address: "127.0.0.1", port: serverPort, users: [user] }] },
      streamSettings: streamSettings(o, false),
    }],
  }, port);
}
