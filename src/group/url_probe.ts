/**
 * The URL test: an HTTP/1.1 GET of the test URL through a member, timed from the dial to the
 * response headers (as sing-box and mihomo measure). https URLs run TLS over the member's stream
 * with the engine's trust store, through the same client layers protocols use.
 */
import type { ClientLayerOptions, ClientLayers, Conn, Metadata, Outbound } from "../adapter/mod.ts";
import { DialError, ProtocolError } from "../common/errors.ts";
import { OutboundTls } from "../config/model/tls.ts";
import type { Clock } from "./clock.ts";
import type { Probe } from "./health.ts";

/** Response headers larger than this are not a health-check answer. */
const MAX_HEAD = 16 * 1024;

export interface ProbeEnvironment {
  clock: Clock;
  /** The engine's client layers (TLS for https URLs). */
  clientLayers(options: ClientLayerOptions): ClientLayers;
}

export function urlProbe(env: ProbeEnvironment): Probe {
  return async (member, url, timeoutMs) => {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new DialError(`Health-check URL must be http or https: "${url}"`);
    }
    const host = u.hostname.replace(/^\[|\]$/g, "");
    const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
    const signal = AbortSignal.timeout(timeoutMs);
    const start = env.clock.now();
    let conn: Conn | undefined;
    try {
      conn = await openStream(member, env, u.protocol === "https:", { host, port }, signal);
      const head = `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUser-Agent: svc\r\n` +
        "Accept: */*\r\nConnection: close\r\n\r\n";
      await writeAll(conn, new TextEncoder().encode(head));
      await readStatus(conn, signal);
      return env.clock.now() - start;
    } finally {
      conn?.close();
    }
  };
}

async function openStream(
  member: Outbound,
  env: ProbeEnvironment,
  tls: boolean,
  destination: { host: string; port: number },
  signal: AbortSignal,
): Promise<Conn> {
  const metadata: Metadata = {
    inbound: "",
    inboundType: "",
    network: "tcp",
    source: { host: "0.0.0.0", port: 0 },
    destination,
  };
  const raw = () => member.dial(destination, metadata, signal);
  if (!tls) return await raw();
  const layers = env.clientLayers({
    server: destination,
    tls: OutboundTls.parse({ enabled: true, server_name: destination.host }),
  });
  return await layers.open(raw, signal);
}

async function writeAll(conn: Conn, data: Uint8Array) {
  for (let off = 0; off < data.length;) off += await conn.write(data.subarray(off));
}

/** Reads until the end of the response headers; throws unless it is an HTTP status line. */
async function readStatus(conn: Conn, signal: AbortSignal): Promise<number> {
  const buf = new Uint8Array(MAX_HEAD);
  let len = 0;
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(new DialError("Health check timed out"));
    if (signal.aborted) fail();
    signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => {});
  while (true) {
    if (len === buf.length) throw new ProtocolError("Health-check response headers are too large");
    const n = await Promise.race([conn.read(buf.subarray(len)), aborted]);
    if (n === null) throw new ProtocolError("Health-check connection closed before the response headers");
    len += n;
    const text = new TextDecoder().decode(buf.subarray(0, len));
    if (!text.includes("\r\n\r\n")) continue;
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
    if (!m) throw new ProtocolError(`Health check got a response that is not HTTP: "${text.slice(0, 20)}"`);
    return Number(m[1]);
  }
}
