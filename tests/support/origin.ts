/** A real HTTP origin on loopback for tests: fixed bodies, echo of the request, large downloads. */
export interface Origin {
  port: number;
  url(path: string): string;
  /** Connections the origin has accepted (to check keep-alive reuse). */
  connections(): number;
  close(): Promise<void>;
}

export function startOrigin(hostname = "127.0.0.1"): Origin {
  const server = Deno.serve({
    hostname,
    port: 0,
    onListen: () => {},
    handler: async (req, info) => {
      const url = new URL(req.url);
      if (url.pathname === "/hello") return new Response("hello from origin\n");
      if (url.pathname === "/echo") {
        const body = await req.text();
        return Response.json({
          method: req.method,
          path: url.pathname + url.search,
          headers: Object.fromEntries(req.headers),
          body,
          remote: (info.remoteAddr as Deno.NetAddr).hostname,
        });
      }
      if (url.pathname === "/bytes") {
        const n = Number(url.searchParams.get("n") ?? "1024");
        const chunk = new Uint8Array(64 * 1024).fill(0x61);
        let left = n;
        return new Response(
          new ReadableStream({
            pull(c) {
              if (left <= 0) return c.close();
              const take = Math.min(left, chunk.length);
              c.enqueue(chunk.slice(0, take));
              left -= take;
            },
          }),
          { headers: { "content-length": String(n) } },
        );
      }
      if (url.pathname === "/chunked") {
        const parts = ["one ", "two ", "three\n"];
        return new Response(
          new ReadableStream({
            pull(c) {
              const p = parts.shift();
              if (p === undefined) c.close();
              else c.enqueue(new TextEncoder().encode(p));
            },
          }),
        );
      }
      return new Response("not found\n", { status: 404 });
    },
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    port: addr.port,
    url: (path) => `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${addr.port}${path}`,
    // Deno.serve has no connection hook; startCountingOrigin counts connections.
    connections: () => Number.NaN,
    close: () => server.shutdown(),
  };
}

/** A TCP origin that counts connections and answers one HTTP/1.1 keep-alive response per request. */
export function startCountingOrigin(): Origin {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let conns = 0;
  const live = new Set<Deno.Conn>();
  (async () => {
    for await (const c of listener) {
      conns++;
      live.add(c);
      (async () => {
        const buf = new Uint8Array(8192);
        let pending = "";
        try {
          while (true) {
            const n = await c.read(buf);
            if (n === null) break;
            pending += new TextDecoder().decode(buf.subarray(0, n));
            while (pending.includes("\r\n\r\n")) {
              const end = pending.indexOf("\r\n\r\n") + 4;
              const head = pending.slice(0, end);
              pending = pending.slice(end);
              const path = head.split(" ")[1];
              const body = `path=${path} conn=${conns}\n`;
              await c.write(
                new TextEncoder().encode(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`),
              );
            }
          }
        } catch { /* reset */ }
        live.delete(c);
        try {
          c.close();
        } catch { /* closed */ }
      })();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    connections: () => conns,
    close: () => {
      listener.close();
      for (const c of live) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      return Promise.resolve();
    },
  };
}

/** A UDP echo server. */
export function startUdpEcho(hostname = "127.0.0.1"): { port: number; close(): void } {
  const s = Deno.listenDatagram({ transport: "udp", hostname, port: 0 });
  (async () => {
    try {
      while (true) {
        const [data, addr] = await s.receive();
        await s.send(data, addr);
      }
    } catch { /* closed */ }
  })();
  return { port: (s.addr as Deno.NetAddr).port, close: () => s.close() };
}
