/**
 * Small independent clients and servers for the conformance cases: a SOCKS5 CONNECT client
 * (RFC 1928, written apart from svc's codec), an echo server, a server that answers only after
 * the request's end of stream (half-close), and a server that accepts and never speaks.
 */

export interface Server extends Disposable {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
}

function serve(handle: (c: Deno.TcpConn) => Promise<void>): Server {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const live = new Set<Deno.TcpConn>();
  let count = 0;
  (async () => {
    for await (const c of listener) {
      count++;
      live.add(c);
      handle(c).catch(() => {}).finally(() => {
        live.delete(c);
        try {
          c.close();
        } catch { /* closed */ }
      });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    accepted: () => count,
    [Symbol.dispose]() {
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

export async function writeAll(c: Deno.Conn, data: Uint8Array): Promise<void> {
  for (let off = 0; off < data.length;) off += await c.write(data.subarray(off));
}

/** Reads to end of stream (or until `limit` bytes); a reset ends the read like EOF. */
export async function readAll(c: Deno.Conn, limit = 64 * 1024 * 1024): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  const buf = new Uint8Array(64 * 1024);
  try {
    while (total < limit) {
      const n = await c.read(buf);
      if (n === null) break;
      parts.push(buf.slice(0, n));
      total += n;
    }
  } catch { /* reset */ }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

async function readExact(c: Deno.Conn, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  for (let off = 0; off < n;) {
    const got = await c.read(out.subarray(off));
    if (got === null) throw new Error(`Closed after ${off} of ${n} bytes`);
    off += got;
  }
  return out;
}

/** Echoes every byte back; half-closes when the client does. */
export function echoServer(): Server {
  return serve(async (c) => {
    const buf = new Uint8Array(64 * 1024);
    while (true) {
      const n = await c.read(buf);
      if (n === null) break;
      await writeAll(c, buf.subarray(0, n));
    }
    await c.closeWrite();
  });
}

/** Reads the whole request to end of stream, then answers `respond(request)` and closes. */
export function afterEofServer(respond: (request: Uint8Array) => Uint8Array): Server {
  return serve(async (c) => {
    const request = await readAll(c);
    await writeAll(c, respond(request));
  });
}

/** Accepts and never writes; reads only to notice the client leaving. */
export function stallServer(): Server {
  return serve(async (c) => {
    // Holds the connection until the client leaves (end of stream) or 20 s pass; what it
    // reads is dropped.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drain = (async () => {
      const sink = new Uint8Array(4096);
      while ((await c.read(sink).catch(() => null)) !== null) { /* dropped */ }
    })();
    await Promise.race([drain, new Promise((r) => (timer = setTimeout(r, 20_000)))]);
    clearTimeout(timer);
  });
}

/** SOCKS5 CONNECT with no authentication to an IPv4 destination; throws on a refusal. */
export async function socks5Connect(
  proxyPort: number,
  port: number,
  host = "127.0.0.1",
): Promise<Deno.TcpConn> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port: proxyPort });
  try {
    await writeAll(c, new Uint8Array([5, 1, 0]));
    const choice = await readExact(c, 2);
    if (choice[1] !== 0) throw new Error(`SOCKS5 method ${choice[1]}`);
    const ip = host.split(".").map(Number);
    await writeAll(c, new Uint8Array([5, 1, 0, 1, ...ip, port >> 8, port & 255]));
    const reply = await readExact(c, 10);
    if (reply[1] !== 0) throw new Error(`SOCKS5 reply ${reply[1]}`);
    return c;
  } catch (e) {
    c.close();
    throw e;
  }
}

/** Random bytes (crypto.getRandomValues caps one call at 64 KiB). */
export function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let off = 0; off < n; off += 65536) {
    crypto.getRandomValues(out.subarray(off, Math.min(n, off + 65536)));
  }
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
