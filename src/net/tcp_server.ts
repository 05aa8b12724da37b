/** Accept loop shared by stream inbounds: one task per connection, all closed with the server. */
import type { Conn } from "../adapter/mod.ts";
import type { Logger } from "../common/log.ts";
import { errorText } from "../common/errors.ts";

export interface TcpServer {
  readonly addr: Deno.NetAddr;
  close(): Promise<void>;
}

export function serveTcp(
  hostname: string,
  port: number,
  logger: Logger,
  handle: (conn: Conn, remote: Deno.NetAddr, local: Deno.NetAddr) => Promise<void>,
): TcpServer {
  const listener = Deno.listen({ hostname, port, transport: "tcp" });
  const live = new Set<Deno.TcpConn>();
  let closed = false;
  const loop = (async () => {
    while (!closed) {
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (e) {
        if (closed || e instanceof Deno.errors.BadResource) return;
        logger.warn(`accept failed: ${errorText(e)}`);
        continue;
      }
      live.add(conn);
      conn.setNoDelay(true);
      closeOnce(conn);
      handle(conn, conn.remoteAddr as Deno.NetAddr, conn.localAddr as Deno.NetAddr)
        .catch((e) => logger.debug(`connection from ${fmt(conn.remoteAddr)} ended: ${errorText(e)}`))
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

/**
 * Makes `conn.close()` a no-op after the first call. The relay, the handler and this server each
 * close the socket, and Deno throws BadResource on a second close: building that error cost
 * ~10-15 µs per connection, a few percent of the connection rate.
 */
function closeOnce(conn: Deno.TcpConn): void {
  const close = conn.close.bind(conn);
  let open = true;
  conn.close = () => {
    if (open) {
      open = false;
      close();
    }
  };
}

function fmt(a: Deno.Addr): string {
  const n = a as Deno.NetAddr;
  return n.hostname.includes(":") ? `[${n.hostname}]:${n.port}` : `${n.hostname}:${n.port}`;
}
