/**
 * Real trojan peers for tests (PEERS.md): trojan-gfw 1.16 as server or client, and v2ray 4.34
 * with a trojan+TLS inbound. Each runs on free loopback ports from its own temporary folder and
 * is stopped by its own PID when disposed. TLS uses tests/support/certs.ts (CA + leaf).
 */
import { Buffer } from "node:buffer";
import * as dnsPacket from "dns-packet";
import { makeTestCertificates } from "./certs.ts";
import { freePort } from "./engine.ts";
import { waitForPort } from "./peers.ts";

export interface TrojanPeer {
  /** The port to reach: the TLS server's, or the trojan-gfw client's SOCKS5 port. */
  port: number;
  dir: string;
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

async function spawn(
  bin: string,
  args: string[],
  port: number,
  dir: string,
  owned: boolean,
): Promise<TrojanPeer> {
  const child = new Deno.Command(bin, { args, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
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
    if (owned) await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    await Promise.race([
      waitForPort(port),
      child.status.then(async (s) => {
        throw new Error(`${bin} exited with ${s.code} before listening: ${(await output).join("")}`);
      }),
    ]);
  } catch (e) {
    await dispose();
    throw e;
  }
  return { port, dir, [Symbol.asyncDispose]: dispose };
}

/** A folder with ca.pem and leaf.pem/leaf.key (localhost, 127.0.0.1), removed when disposed. */
export async function certDir(): Promise<{ path: string; ca: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "svc-trojan-certs-" });
  await makeTestCertificates(path);
  return {
    path,
    ca: await Deno.readTextFile(`${path}/ca.pem`),
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** trojan-gfw server; non-trojan connections go to `fallbackPort` on loopback (its remote_addr). */
export async function startTrojanGfwServer(
  o: { password: string; certs: string; fallbackPort: number },
): Promise<TrojanPeer> {
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "svc-trojan-gfw-" });
  await Deno.writeTextFile(
    `${dir}/server.json`,
    JSON.stringify({
      run_type: "server",
      local_addr: "127.0.0.1",
      local_port: port,
      remote_addr: "127.0.0.1",
      remote_port: o.fallbackPort,
      password: [o.password],
      log_level: 2,
      ssl: { cert: `${o.certs}/leaf.pem`, key: `${o.certs}/leaf.key`, alpn: ["http/1.1"] },
    }),
  );
  return await spawn(need("trojan"), ["-c", `${dir}/server.json`], port, dir, true);
}

/** trojan-gfw client: a SOCKS5 server (TCP and UDP) on loopback that speaks trojan to `serverPort`. */
export async function startTrojanGfwClient(
  o: { password: string; certs: string; serverPort: number },
): Promise<TrojanPeer> {
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "svc-trojan-gfw-client-" });
  await Deno.writeTextFile(
    `${dir}/client.json`,
    JSON.stringify({
      run_type: "client",
      local_addr: "127.0.0.1",
      local_port: port,
      remote_addr: "127.0.0.1",
      remote_port: o.serverPort,
      password: [o.password],
      log_level: 2,
      ssl: {
        verify: true,
        verify_hostname: true,
        cert: `${o.certs}/ca.pem`,
        sni: "localhost",
        alpn: ["http/1.1"],
      },
    }),
  );
  return await spawn(need("trojan"), ["-c", `${dir}/client.json`], port, dir, true);
}

/** v2ray 4.34 with one trojan+TLS inbound (TCP and UDP) and a freedom outbound. */
export async function startV2rayTrojanServer(o: { password: string; certs: string }): Promise<TrojanPeer> {
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "svc-v2ray-trojan-" });
  await Deno.writeTextFile(
    `${dir}/config.json`,
    JSON.stringify({
      log: { loglevel: "warning" },
      inbounds: [{
        listen: "127.0.0.1",
        port,
        protocol: "trojan",
        settings: { clients: [{ password: o.password }] },
        streamSettings: {
          security: "tls",
          tlsSettings: {
            certificates: [{ certificateFile: `${o.certs}/leaf.pem`, keyFile: `${o.certs}/leaf.key` }],
          },
        },
      }],
      outbounds: [{ protocol: "freedom" }],
    }),
  );
  return await spawn(need("v2ray"), ["-config", `${dir}/config.json`], port, dir, true);
}

/** A DNS A query for `name` (dns-packet, independent of svc's codec). */
export function dnsQuery(name: string, id: number): Uint8Array {
  return dnsPacket.encode({
    type: "query",
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: "A", name }],
  });
}

/** The A records of a DNS answer, with its id. */
export function dnsAnswers(payload: Uint8Array): { id: number; addresses: string[] } {
  const m = dnsPacket.decode(Buffer.from(payload)) as {
    id?: number;
    answers?: { type: string; data: unknown }[];
  };
  return {
    id: m.id ?? -1,
    addresses: (m.answers ?? []).filter((a) => a.type === "A").map((a) => String(a.data)),
  };
}
