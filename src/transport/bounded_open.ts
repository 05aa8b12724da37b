/**
 * Bounds the whole client setup of an outbound stream by one deadline: the TCP connect, the TLS
 * and transport handshakes (ClientLayers.open) and the protocol's own handshake (a SOCKS or HTTP
 * CONNECT reply). A server that accepts TCP and then stays silent must fail the dial, not hold it
 * until the client gives up; sing-box bounds the same phase with its connect timeout.
 */
import type { Address, ClientLayers, Conn } from "../adapter/mod.ts";
import { DialError } from "../common/errors.ts";
import { joinHostPort } from "../common/address.ts";
import { closeQuietly } from "../net/relay.ts";

/** The dialer's own default connect timeout; outbounds without `connect_timeout` get it. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5000;

export interface BoundedOpenOptions {
  /** Protocol name for messages ("SOCKS", "HTTP proxy", "VLESS"). */
  what: string;
  server: Address;
  /** The outbound's `connect_timeout` in ms; DEFAULT_HANDSHAKE_TIMEOUT_MS when absent. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Opens a stream through `layers` (raw sockets from `dialRaw`) and runs `handshake` on it, all
 * within the deadline. On expiry every socket opened so far is closed (which also fails the
 * pending handshake), and a result that arrives late is disposed with `dispose`.
 */
export function boundedOpen<T>(
  layers: ClientLayers,
  dialRaw: (signal?: AbortSignal) => Promise<Conn>,
  handshake: (conn: Conn) => Promise<T>,
  dispose: (value: T) => void,
  o: BoundedOpenOptions,
): Promise<T> {
  const ms = o.timeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const opened: Conn[] = [];
  let expired: Error | undefined;
  const where = `${o.what} server ${joinHostPort(o.server.host, o.server.port)}`;

  const work = (async () => {
    const conn = await layers.open(async (s) => {
      const raw = await dialRaw(s);
      opened.push(raw);
      if (expired) raw.close();
      return raw;
    }, o.signal);
    opened.push(conn);
    if (expired) throw expired;
    try {
      return await handshake(conn);
    } catch (e) {
      conn.close();
      throw e;
    }
  })();

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = () => expire(o.signal?.reason ?? new DialError(`${where}: dial aborted`));
    // Closures below run only after `timer` exists (abort is checked after it is set).
    const cleanup = () => {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    };
    const expire = (error: Error) => {
      if (settled) return;
      settled = true;
      expired = error;
      cleanup();
      opened.forEach(closeQuietly);
      reject(error);
    };
    const timer = setTimeout(() => expire(new DialError(`${where}: handshake timed out after ${ms} ms`)), ms);
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener("abort", onAbort, { once: true });
    work.then((v) => {
      if (settled) return dispose(v);
      settled = true;
      cleanup();
      resolve(v);
    }, (e) => {
      if (settled) return;
      settled = true;
      cleanup();
      opened.forEach(closeQuietly);
      reject(e);
    });
  });
}
