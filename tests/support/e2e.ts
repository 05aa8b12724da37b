/** Small helpers shared by the whole-engine tests in tests/e2e. */
import type { RunningEngine } from "./engine.ts";
import { type Origin, startCountingOrigin, startOrigin, startUdpEcho } from "./origin.ts";

/** The port an inbound of a running engine listens on (inbounds started with `listen_port: 0`). */
export function inboundPort(running: RunningEngine, tag: string): number {
  const inbound = running.engine.inbounds.get(tag) as { address?: Deno.NetAddr } | undefined;
  if (!inbound?.address) throw new Error(`Inbound "${tag}" has no listener`);
  return inbound.address.port;
}

/** Polls `check` until it returns a truthy value; throws with `what` after `ms`. */
type Falsy = undefined | null | false | 0 | "";

export async function waitFor<T>(
  what: string,
  check: () => T | Falsy | Promise<T | Falsy>,
  ms = 3000,
): Promise<T> {
  const deadline = Date.now() + ms;
  while (true) {
    const v = await check();
    if (v) return v as T;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw TCP listener that records every byte each connection sends (it never answers). */
export function startRecorder(hostname = "127.0.0.1"): {
  port: number;
  received: () => Uint8Array[];
  close(): void;
} {
  const listener = Deno.listen({ hostname, port: 0 });
  const got: Uint8Array[] = [];
  const live = new Set<Deno.Conn>();
  (async () => {
    for await (const c of listener) {
      live.add(c);
      (async () => {
        const buf = new Uint8Array(16384);
        const chunks: number[] = [];
        const idx = got.push(new Uint8Array()) - 1;
        try {
          while (true) {
            const n = await c.read(buf);
            if (n === null) break;
            chunks.push(...buf.subarray(0, n));
            got[idx] = new Uint8Array(chunks);
          }
        } catch { /* reset */ }
        live.delete(c);
        try {
          c.close();
        } catch { /* closed */ }
      })();
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    received: () => got,
    close: () => {
      try {
        listener.close();
      } catch { /* closed */ }
      for (const c of live) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

/** The test origins of origin.ts as `await using` resources. */
export function origin(hostname = "127.0.0.1"): Origin & AsyncDisposable {
  const o = startOrigin(hostname);
  return { ...o, [Symbol.asyncDispose]: () => o.close() };
}

export function countingOrigin(): Origin & AsyncDisposable {
  const o = startCountingOrigin();
  return { ...o, [Symbol.asyncDispose]: () => o.close() };
}

export function udpEcho(hostname = "127.0.0.1"): { port: number } & Disposable {
  const e = startUdpEcho(hostname);
  return { port: e.port, [Symbol.dispose]: () => e.close() };
}

/** Sends one datagram from a fresh socket and waits for one answer (undefined after `ms`). */
export async function udpRoundTrip(
  to: { hostname: string; port: number },
  payload: string,
  ms = 3000,
): Promise<string | undefined> {
  const s = Deno.listenDatagram({
    transport: "udp",
    hostname: to.hostname.includes(":") ? "::1" : "127.0.0.1",
    port: 0,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await s.send(new TextEncoder().encode(payload), { transport: "udp", ...to });
    const got = await Promise.race([
      s.receive().then(([d]) => new TextDecoder().decode(d), () => undefined),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms))),
    ]);
    return got;
  } finally {
    clearTimeout(timer);
    s.close();
  }
}

/** A temporary folder removed when disposed. */
export async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "svc-test-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}
