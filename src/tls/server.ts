/** Accept loop for a TLS listener: one task per connection, handshake bounded, all closed with the server. */
import type { Conn, LayeredServer, StreamInfo } from "../adapter/mod.ts";
import { errorText } from "../common/errors.ts";
import type { Logger } from "../common/log.ts";
import type { TlsServerLayer } from "./layer.ts";

const HANDSHAKE_TIMEOUT_MS = 15_000;

export function serveTls(
  layer: TlsServerLayer,
  hostname: string,
  port: number,
  logger: Logger,
  handle: (
    conn: Conn,
    source: { host: string; port: number },
    local: { host: string; port: number },
    info: StreamInfo,
  ) => Promise<void>,
): LayeredServer {
  const listener = layer.listen(hostname, port);
  const live = new Set<Deno.TlsConn>();
  let closed = false;
  const serveOne = async (conn: Deno.TlsConn) => {
    const remote = conn.remoteAddr as Deno.NetAddr, local = conn.localAddr as Deno.NetAddr;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const hs = await Promise.race([
        conn.handshake(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("TLS handshake timed out")), HANDSHAKE_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      await handle(
        conn,
        { host: remote.hostname, port: remote.port },
        { host: local.hostname, port: local.port },
        { alpn: hs.alpnProtocol ?? undefined },
      );
    } finally {
      clearTimeout(timer);
    }
  };
  const loop = (async () => {
    while (!closed) {
      let conn: Deno.TlsConn;
      try {
        conn = await listener.accept();
      } catch (e) {
        if (closed || e instanceof Deno.errors.BadResource) return;
        logger.warn(`accept failed: ${errorText(e)}`);
        continue;
      }
      live.add(conn);
      serveOne(conn)
        .catch((e) => logger.debug(`TLS connection ended: ${errorText(e)}`))
        .finally(() => {
          live.delete(conn);
          try {
            conn.close();
          } catch { /* already closed */ }
        });
    }
  })();
  return {
    addr: listener.addr as Deno.NetAddr,
    async close() {
      closed = true;
      try {
        listener.close();
      } catch { /* already closed */ }
      for (const c of live) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      await loop;
    },
  };
}
