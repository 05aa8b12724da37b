/**
 * TLS servers: with OpenSSL, a TCP accept loop whose streams go through the engine's handshake
 * (bounded by handshake_timeout); with the rustls fallback, Deno's own TLS listener. Either way
 * `handle` gets the decrypted stream with the negotiated ALPN and the client's SNI.
 */
import type { Conn, LayeredServer, StreamInfo } from "../adapter/mod.ts";
import { errorText } from "../common/errors.ts";
import type { Logger } from "../common/log.ts";
import { serveTcp } from "../net/tcp_server.ts";
import type { TlsServerLayer } from "./layer.ts";

type Handle = (
  conn: Conn,
  source: { host: string; port: number },
  local: { host: string; port: number },
  info: StreamInfo,
) => Promise<void>;

export function serveTls(
  layer: TlsServerLayer,
  hostname: string,
  port: number,
  logger: Logger,
  handle: Handle,
): LayeredServer {
  if (layer.kind === "openssl") {
    const engine = layer.engine;
    return serveTcp(hostname, port, logger, async (tcp, remote, local) => {
      const { conn, info } = await engine.accept(tcp);
      try {
        await handle(
          conn,
          { host: remote.hostname, port: remote.port },
          { host: local.hostname, port: local.port },
          { alpn: info.alpn, serverName: info.serverName },
        );
      } finally {
        conn.close();
      }
    });
  }
  return serveRustls(layer, hostname, port, logger, handle);
}

function serveRustls(
  layer: Extract<TlsServerLayer, { kind: "rustls" }>,
  hostname: string,
  port: number,
  logger: Logger,
  handle: Handle,
): LayeredServer {
  const HANDSHAKE_TIMEOUT_MS = layer.handshakeTimeoutMs;
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
