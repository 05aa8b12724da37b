/**
 * Copies bytes both ways between two Conns until both directions end, counting them.
 * Plain read/write loops over one reusable buffer per direction: no WHATWG streams and no
 * per-chunk allocation on the hot path (measured in scripts/bench/relay.ts).
 */
import type { Conn } from "../adapter/mod.ts";

export interface RelayCounters {
  /** Bytes from the client side (a) to the remote side (b). */
  up: number;
  /** Bytes from the remote side (b) to the client side (a). */
  down: number;
}

const BUFFER_SIZE = 64 * 1024;

export async function writeAll(conn: Conn, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await conn.write(off === 0 ? data : data.subarray(off));
}

async function pump(
  src: Conn,
  dst: Conn,
  counters: RelayCounters,
  key: "up" | "down",
  onActivity?: () => void,
): Promise<void> {
  const buf = new Uint8Array(BUFFER_SIZE);
  try {
    while (true) {
      const n = await src.read(buf);
      if (n === null) break;
      if (n === 0) continue;
      await writeAll(dst, buf.subarray(0, n));
      counters[key] += n;
      onActivity?.();
    }
  } finally {
    // Half-close so the peer sees end-of-stream but can still answer (e.g. `printf … | nc`).
    await dst.closeWrite().catch(() => {});
  }
}

/**
 * Relays until both directions have ended or either side fails; then closes both.
 * `counters` is updated live so trackers can read traffic while the relay runs.
 */
export async function relay(
  a: Conn,
  b: Conn,
  counters: RelayCounters = { up: 0, down: 0 },
  onActivity?: () => void,
): Promise<RelayCounters> {
  const up = pump(a, b, counters, "up", onActivity);
  const down = pump(b, a, counters, "down", onActivity);
  try {
    // An error in one direction ends both: close sockets so the other pump's read returns.
    await Promise.all([up, down].map((p) =>
      p.catch((e) => {
        a.close();
        b.close();
        throw e;
      })
    ));
  } catch {
    // Resets and closes mid-transfer are normal ends of a proxied connection.
  } finally {
    a.close();
    b.close();
  }
  return counters;
}
