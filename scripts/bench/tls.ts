/**
 * TLS client benchmark (not a test): bulk download of one file from nginx over TLS, read by
 *  - svc's TLS client on the OpenSSL engine (src/tls/openssl.ts),
 *  - svc's fallback engine, Deno's rustls (Deno.startTls), and
 *  - curl's own TLS (OpenSSL), the peer figure,
 * against the same nginx (TLS 1.3 and TLS 1.2 servers), in the same run. Run from the root:
 *
 *   ./scripts/deno run -A scripts/bench/tls.ts [--runs 3] [--mib 256]
 *
 * Runs are interleaved (every path once per run) and each figure is the median of RUNS; ratios
 * are taken per run against curl and their median printed. The machine is shared: compare ratios.
 */
import { parseArgs } from "node:util";
import { makeTestCertificates } from "../../tests/support/certs.ts";
import { startNginxTls } from "../../tests/support/tls_peers.ts";
import { tlsClientLayer, type TlsEnvironment } from "../../src/tls/layer.ts";
import type { OutboundTlsModel } from "../../src/config/mod.ts";

const args = parseArgs({
  options: { runs: { type: "string", default: "3" }, mib: { type: "string", default: "256" } },
});
const RUNS = Number(args.values.runs), MIB = Number(args.values.mib);

async function svcDownload(port: number, ca: string, env: TlsEnvironment): Promise<number> {
  // The CA comes from the top-level store for both engines (rustls cannot replace its roots).
  const trust = { store: "system" as const, certificates: [Deno.readTextFileSync(ca)], path: "/certificate" };
  const layer = tlsClientLayer({ enabled: true } as OutboundTlsModel, { ...env, trust }, "/bench");
  const start = performance.now();
  const tcp = await Deno.connect({ hostname: "127.0.0.1", port });
  tcp.setNoDelay(true);
  const conn = await layer.wrap(tcp, "localhost");
  await conn.write(new TextEncoder().encode("GET /blob HTTP/1.0\r\nHost: localhost\r\n\r\n"));
  const buf = new Uint8Array(256 * 1024);
  let total = 0;
  for (let n; (n = await conn.read(buf)) !== null;) total += n;
  conn.close();
  const secs = (performance.now() - start) / 1000;
  if (total < MIB * 1048576) throw new Error(`short download: ${total} bytes`);
  return total / 1048576 / secs;
}

async function curlDownload(port: number, ca: string): Promise<number> {
  const out = await new Deno.Command("curl", {
    args: [
      "-s",
      "-o",
      "/dev/null",
      "--cacert",
      ca,
      "-w",
      "%{speed_download} %{size_download}",
      `https://localhost:${port}/blob`,
    ],
    env: { https_proxy: "", HTTPS_PROXY: "", ALL_PROXY: "" },
  }).output();
  const [speed, size] = new TextDecoder().decode(out.stdout).split(" ").map(Number);
  if (size !== MIB * 1048576) throw new Error(`curl: short download (${size})`);
  return speed / 1048576;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = await Deno.makeTempDir({ prefix: "svc-bench-tls-" });
try {
  await makeTestCertificates(dir);
  await Deno.mkdir(`${dir}/www`);
  const f = await Deno.open(`${dir}/www/blob`, { write: true, create: true });
  const chunk = new Uint8Array(1048576);
  crypto.getRandomValues(chunk.subarray(0, 65536));
  for (let i = 0; i < MIB; i++) await f.write(chunk);
  f.close();
  const ca = `${dir}/ca.pem`;
  for (const version of ["TLSv1.3", "TLSv1.2"] as const) {
    await using nginx = await startNginxTls(dir, version);
    const paths: Record<string, () => Promise<number>> = {
      "svc openssl": () => svcDownload(nginx.port, ca, {}),
      "svc rustls": () => svcDownload(nginx.port, ca, { engine: "rustls" }),
      curl: () => curlDownload(nginx.port, ca),
    };
    const got: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    for (let r = 0; r < RUNS; r++) {
      const order = r % 2 ? Object.keys(paths).reverse() : Object.keys(paths);
      for (const k of order) got[k].push(await paths[k]());
    }
    console.log(`\nnginx ${version}, ${MIB} MiB, ${RUNS} runs (MiB/s, median):`);
    for (const k of Object.keys(paths)) {
      const ratios = got[k].map((v, i) => v / got.curl[i]);
      console.log(
        `  ${k.padEnd(12)} ${median(got[k]).toFixed(0).padStart(6)}   runs ${
          got[k].map((v) => v.toFixed(0)).join(" ")
        }` +
          `   ratio vs curl ${median(ratios).toFixed(2)}`,
      );
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
