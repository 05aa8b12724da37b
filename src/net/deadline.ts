/** Closes a Conn when a phase (a handshake, an idle keep-alive wait) takes longer than allowed. */
import type { Conn } from "../adapter/mod.ts";

/** Time a client gets to finish a proxy handshake (sing-box's read-payload budget is similar). */
export const HANDSHAKE_TIMEOUT_MS = 15_000;
/** Time an idle HTTP keep-alive connection waits for the next request. */
export const KEEP_ALIVE_IDLE_MS = 90_000;

export function closeAfter(conn: Conn, ms: number): { clear(): void } {
  const timer = setTimeout(() => {
    try {
      conn.close();
    } catch { /* already closed */ }
  }, ms);
  return { clear: () => clearTimeout(timer) };
}
