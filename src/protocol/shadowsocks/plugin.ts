/**
 * SIP003 plugins run as child processes (sing-box's `obfs-local` and `v2ray-plugin`): the plugin
 * listens on a local port and forwards to the server; we dial the local port. The environment
 * is SIP003's: SS_REMOTE_HOST/PORT (the server), SS_LOCAL_HOST/PORT (where it listens) and
 * SS_PLUGIN_OPTIONS. The child is killed when the outbound closes.
 */
import type { Address } from "../../adapter/mod.ts";
import { DialError, errorText } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";

/** Plugin names sing-box accepts, with the executables that provide them (Debian names the v2ray one `ss-v2ray-plugin`). */
export const PLUGIN_BINARIES: Readonly<Record<string, readonly string[]>> = {
  "obfs-local": ["obfs-local"],
  "v2ray-plugin": ["v2ray-plugin", "ss-v2ray-plugin"],
};

const START_TIMEOUT_MS = 5000;

function findExecutable(names: readonly string[]): string | undefined {
  const dirs = (Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin").split(":");
  for (const name of names) {
    for (const d of dirs) {
      try {
        const p = `${d}/${name}`;
        if (Deno.statSync(p).isFile) return p;
      } catch { /* not here */ }
    }
  }
  return undefined;
}

export class Sip003Plugin {
  private child?: Deno.ChildProcess;
  private starting?: Promise<Address>;

  constructor(
    private readonly name: string,
    private readonly options: string,
    private readonly server: Address,
    private readonly logger: Logger,
  ) {}

  /** Starts the child once; resolves to the local address to dial. */
  start(): Promise<Address> {
    return this.starting ??= this.spawn();
  }

  private async spawn(): Promise<Address> {
    const binary = findExecutable(PLUGIN_BINARIES[this.name] ?? []);
    if (!binary) {
      throw new DialError(
        `Plugin "${this.name}" is not installed (looked for ${
          PLUGIN_BINARIES[this.name].join(", ")
        } on PATH)`,
      );
    }
    // A free loopback port for the plugin: bind, read the number, release.
    const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (probe.addr as Deno.NetAddr).port;
    probe.close();
    this.child = new Deno.Command(binary, {
      env: {
        SS_REMOTE_HOST: this.server.host,
        SS_REMOTE_PORT: String(this.server.port),
        SS_LOCAL_HOST: "127.0.0.1",
        SS_LOCAL_PORT: String(port),
        SS_PLUGIN_OPTIONS: this.options,
      },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const child = this.child;
    let exited = false;
    child.status.then((s) => {
      exited = true;
      if (this.child === child) this.logger.warn(`plugin "${this.name}" exited with code ${s.code}`);
    });
    const until = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < until && !exited) {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port })).close();
        this.logger.info(`plugin "${this.name}" (${binary}) listening on 127.0.0.1:${port}`);
        return { host: "127.0.0.1", port };
      } catch {
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    this.close();
    throw new DialError(`Plugin "${this.name}" did not start listening on 127.0.0.1:${port}`);
  }

  close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.starting = undefined;
    if (!child) return Promise.resolve();
    try {
      child.kill("SIGTERM");
    } catch (e) {
      this.logger.debug(`plugin kill: ${errorText(e)}`);
    }
    return child.status.then(() => {});
  }
}
