/** Running the real `scripts/svc` command line as a subprocess in tests. */

const SVC = new URL("../../scripts/svc", import.meta.url).pathname;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `svc ARGS` to completion. */
export async function svc(args: string[]): Promise<CommandResult> {
  const out = await new Deno.Command(SVC, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

/** A long-running `svc` process whose standard error (its log) is collected as it comes. */
export class SvcProcess implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  private err = "";
  private out = "";
  private readonly drained: Promise<void>;
  private exited?: Deno.CommandStatus;

  constructor(args: string[]) {
    this.child = new Deno.Command(SVC, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    this.child.status.then((s) => (this.exited = s));
    const collect = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
      const d = new TextDecoder();
      for await (const chunk of stream) add(d.decode(chunk, { stream: true }));
    };
    this.drained = Promise.all([
      collect(this.child.stderr, (s) => (this.err += s)),
      collect(this.child.stdout, (s) => (this.out += s)),
    ]).then(() => {});
  }

  get stderr(): string {
    return this.err;
  }

  get stdout(): string {
    return this.out;
  }

  get status(): Promise<Deno.CommandStatus> {
    return this.child.status;
  }

  /** Resolves with the log once it matches `re` after `from` characters; throws after `ms` or at exit. */
  async waitForLog(re: RegExp, from = 0, ms = 5000): Promise<string> {
    const deadline = Date.now() + ms;
    while (true) {
      const tail = this.err.slice(from);
      if (re.test(tail)) return tail;
      if (this.exited) {
        throw new Error(`svc exited (${this.exited.code}) before logging ${re}:\n${this.err}`);
      }
      if (Date.now() > deadline) throw new Error(`svc did not log ${re} within ${ms} ms:\n${this.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  kill(signal: Deno.Signal): void {
    this.child.kill(signal);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.exited) {
      try {
        this.child.kill("SIGKILL");
      } catch { /* already gone */ }
    }
    await this.child.status;
    await this.drained;
  }
}
