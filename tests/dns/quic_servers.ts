/**
 * Minimal DoQ (RFC 9250) and DoH3 servers on Deno's QUIC listener, for tests: no Debian package
 * serves DNS over QUIC or HTTP/3 here. Both answer every A query 127.0.0.1 and record where each
 * connection came from.
 */
import {
  encodeFieldSection,
  encodeFrame,
  encodeSettings,
  FRAME_DATA,
  FRAME_HEADERS,
  FrameReader,
} from "../../src/dns/servers/http3_frames.ts";
import { answer } from "../../src/dns/servers/testing.ts";

export interface QuicTestServer {
  port: number;
  /** The remote address of each connection accepted. */
  peers: Deno.NetAddr[];
  close(): void;
}

function serve(
  cert: string,
  key: string,
  alpn: string,
  onConn: (conn: Deno.QuicConn) => Promise<void>,
): QuicTestServer {
  const endpoint = new Deno.QuicEndpoint({ hostname: "127.0.0.1", port: 0 });
  const listener = endpoint.listen({ cert, key, alpnProtocols: [alpn] });
  const peers: Deno.NetAddr[] = [];
  const conns = new Set<Deno.QuicConn>();
  (async () => {
    try {
      for await (const incoming of listener) {
        const conn = await incoming.accept();
        peers.push(conn.remoteAddr);
        conns.add(conn);
        onConn(conn).catch(() => {});
      }
    } catch { /* stopped */ }
  })();
  return {
    port: endpoint.addr.port,
    peers,
    close: () => {
      for (const c of conns) {
        try {
          c.close({ closeCode: 0, reason: "" });
        } catch { /* closed */ }
      }
      listener.stop();
      endpoint.close();
    },
  };
}

/** DoQ: each stream carries one length-prefixed query (id 0), answered 127.0.0.1. */
export function startDoq(cert: string, key: string): QuicTestServer {
  const serveStream = async (s: Deno.QuicBidirectionalStream) => {
    const q = new Uint8Array(await new Response(s.readable).arrayBuffer()).subarray(2);
    if (q[0] !== 0 || q[1] !== 0) throw new Error("DoQ query id is not 0");
    const r = answer(q, ["127.0.0.1"]);
    const w = s.writable.getWriter();
    await w.write(new Uint8Array([r.length >> 8, r.length & 0xff, ...r]));
    await w.close();
  };
  return serve(cert, key, "doq", async (conn) => {
    for await (const s of conn.incomingBidirectionalStreams) serveStream(s).catch(() => {});
  });
}

/** DoH3: a POST per request stream (HEADERS, DATA with the query), answered 200 with 127.0.0.1. */
export function startDoh3(cert: string, key: string): QuicTestServer {
  const serveStream = async (s: Deno.QuicBidirectionalStream) => {
    const frames = new FrameReader();
    frames.push(new Uint8Array(await new Response(s.readable).arrayBuffer()));
    let q: Uint8Array | undefined;
    for (let f = frames.next(); f; f = frames.next()) if (f.type === FRAME_DATA) q = f.payload;
    if (!q) throw new Error("DoH3 request without a query");
    const w = s.writable.getWriter();
    const fields = encodeFieldSection([[":status", "200"], ["content-type", "application/dns-message"]]);
    await w.write(encodeFrame(FRAME_HEADERS, fields));
    await w.write(encodeFrame(FRAME_DATA, answer(q, ["127.0.0.1"])));
    await w.close();
  };
  return serve(cert, key, "h3", async (conn) => {
    const control = (await conn.createUnidirectionalStream()).getWriter();
    await control.write(new Uint8Array([0x00, ...encodeSettings([[6, 16384]])]));
    for await (const s of conn.incomingBidirectionalStreams) serveStream(s).catch(() => {});
  });
}
