/** Starting svc engines and running real clients (curl) against them in tests. */
import { loadConfig } from "../../src/config/mod.ts";
import { Engine } from "../../src/engine/engine.ts";

/** A free loopback TCP port (also free for UDP in practice on loopback). */
export function freePort(hostname = "127.0.0.1"): number {
  const l = Deno.listen({ hostname, port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

export interface RunningEngine {
  engine: Engine;
  logs: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

/** Builds and starts an engine from a configuration object (native JSON shape). */
export async function startEngine(config: unknown): Promise<RunningEngine> {
  const { model } = loadConfig(JSON.stringify(config));
  const logs: string[] = [];
  const engine = Engine.build(model, { logSink: { write: (l) => void logs.push(l) } });
  await engine.start();
  return { engine, logs, [Symbol.asyncDispose]: () => engine.stop() };
}

export interface CurlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real curl binary; never uses the environment's proxy settings. */
export async function curl(args: string[]): Promise<CurlResult> {
  const out = await new Deno.Command("curl", {
    args: ["--silent", "--show-error", "--max-time", "10", "--noproxy", "", ...args],
    env: { NO_PROXY: "", no_proxy: "", http_proxy: "", https_proxy: "", ALL_PROXY: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}
