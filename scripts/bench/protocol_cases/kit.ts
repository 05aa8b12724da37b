/**
 * What protocol bench cases share (scripts/bench/protocols.ts runs them): the case shape, and
 * helpers to start svc and peer processes on loopback ports. One module per protocol in this
 * folder exports `cases(env)`; add it to the list in protocols.ts.
 */

export const HOST = "127.0.0.1";

/** One client→server chain: something that ends in a local SOCKS5 port (socks5h) reaching the origin. */
export interface Pair {
  /** Short label: "svc", "v2ray", "ss-libev". */
  name: string;
  /** Starts the processes; resolves to the SOCKS5 port to send curl and connections through. */
  start(env: Env): Promise<number>;
}

/** svc↔svc against peer pairs on one protocol setting, measured interleaved in the same run. */
export interface Comparison {
  /** "shadowsocks aes-128-gcm" */
  name: string;
  svc: Pair;
  peers: Pair[];
  /** Targets checked on the per-run ratio medians svc/peer. */
  targets: { peer: string; metric: "bulk" | "rate"; atLeast: number }[];
}

export interface Proc {
  name: string;
  child: Deno.ChildProcess;
  comm: string;
  stderr: string[];
}

export interface Env {
  tmp: string;
  root: string;
  freePort(): number;
  /** Starts a process, kept until the bench ends (stopped by PID). */
  spawn(name: string, cmd: string, args: string[], comm: string): Proc;
  waitForPort(port: number, p: Proc): Promise<void>;
  /** Writes a svc JSON config and runs `scripts/svc run -c` on it; resolves once `port` listens. */
  svc(name: string, config: unknown, port: number): Promise<Proc>;
  /** First existing path of `paths`, else undefined. */
  which(paths: string[]): string | undefined;
  /** Writes a file in the temp folder; returns its path. */
  file(name: string, text: string): string;
}

export interface CaseModule {
  cases(env: Env): Comparison[];
}

/** A svc client (mixed inbound → `outbound`) in front of whatever server the pair starts. */
export function svcClientConfig(port: number, outbound: Record<string, unknown>): unknown {
  return {
    log: { level: "warn" },
    inbounds: [{ type: "mixed", tag: "in", listen: HOST, listen_port: port }],
    outbounds: [{ tag: "out", ...outbound }],
  };
}

/** A svc server: `inbound` → direct. */
export function svcServerConfig(inbound: Record<string, unknown>): unknown {
  return {
    log: { level: "warn" },
    inbounds: [{ tag: "in", listen: HOST, ...inbound }],
    outbounds: [{ type: "direct", tag: "direct" }],
  };
}
