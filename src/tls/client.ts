/**
 * A TLS client over any Conn. Deno can start TLS only on its own TCP sockets, so a raw socket
 * gets `Deno.startTls` directly and anything else (a detour's proxied stream) is bridged through
 * a loopback TCP pair whose far end relays to it. The bridge accepts only the socket it opened
 * itself (checked by port), so no other local process can slip in.
 */
import type { Conn } from "../adapter/mod.ts";
import { ProtocolError } from "../common/errors.ts";
import { closeQuietly, relay } from "../net/relay.ts";

export interface TlsClientOptions {
  /** Name sent as SNI and checked against the certificate. */
  serverName: string;
  /** Extra trusted CA certificates (PEM); the system's and Mozilla's roots are trusted as Deno does. */
  caCerts?: string[];
  alpn?: string[];
}

export type TlsConn = Deno.TlsConn;

function isDenoTcp(c: Conn): c is Deno.TcpConn {
  return typeof (c as Deno.TcpConn).setNoDelay === "function" &&
    typeof (c as Deno.TcpConn).readable === "object";
}

export async function tlsClient(conn: Conn, opts: TlsClientOptions): Promise<TlsConn> {
  const tcp = isDenoTcp(conn) ? conn : await bridge(conn);
  try {
    const tls = await Deno.startTls(tcp, {
      hostname: opts.serverName,
      caCerts: opts.caCerts,
      alpnProtocols: opts.alpn,
    });
    await tls.handshake();
    return tls;
  } catch (e) {
    closeQuietly(tcp);
    throw e;
  }
}

/** A loopback TCP socket whose bytes travel to and from `conn`. */
async function bridge(conn: Conn): Promise<Deno.TcpConn> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const near = await Deno.connect({ hostname: "127.0.0.1", port: (listener.addr as Deno.NetAddr).port });
    const nearPort = (near.localAddr as Deno.NetAddr).port;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const far = await listener.accept();
      if ((far.remoteAddr as Deno.NetAddr).port !== nearPort) {
        closeQuietly(far); // someone else's connection: never ours to relay
        continue;
      }
      far.setNoDelay(true);
      near.setNoDelay(true);
      relay(far, conn).catch(() => {});
      return near;
    }
    closeQuietly(near);
    throw new ProtocolError("TLS bridge: the loopback connection did not arrive");
  } finally {
    listener.close();
  }
}
