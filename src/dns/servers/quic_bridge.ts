/**
 * QUIC through a detour. Deno's QUIC needs a real UDP socket, so the QUIC endpoint (bound to
 * 127.0.0.1) talks to a loopback relay socket, and the relay carries each datagram through the
 * detour's PacketConn to the server and back (as tls/client.ts bridges TLS over a loopback stream).
 * The relay takes datagrams only from the endpoint's own socket: nothing else on the machine can
 * send through the detour.
 */
import type { Address, Dialer, PacketConn } from "../../adapter/mod.ts";
import { closeQuietly } from "../../net/relay.ts";
import { dnsMetadata } from "./util.ts";

const LOOPBACK = "127.0.0.1";

export interface QuicConnectOptions {
  serverName?: string;
  caCerts?: string[];
  alpnProtocols: string[];
}

/** A QUIC connection to `server`: direct when `dialer` is undefined, else bridged through it. */
export async function connectQuic(
  tag: string,
  server: Address,
  options: QuicConnectOptions,
  dialer?: Dialer,
  signal?: AbortSignal,
): Promise<Deno.QuicConn> {
  const base = {
    serverName: options.serverName ?? server.host,
    caCerts: options.caCerts,
    alpnProtocols: options.alpnProtocols,
    zeroRtt: false as const,
  };
  if (!dialer) return await Deno.connectQuic({ ...base, hostname: server.host, port: server.port });
  const remote = await dialer.listenPacket(server, dnsMetadata(tag, server, "udp"), signal);
  let relay: Deno.DatagramConn | undefined, endpoint: Deno.QuicEndpoint | undefined;
  try {
    relay = Deno.listenDatagram({ transport: "udp", hostname: LOOPBACK, port: 0 });
    endpoint = new Deno.QuicEndpoint({ hostname: LOOPBACK, port: 0 });
    const pumps = bridge(relay, endpoint.addr.port, remote, server);
    const conn = await Deno.connectQuic({
      ...base,
      hostname: LOOPBACK,
      port: (relay.addr as Deno.NetAddr).port,
      endpoint,
    });
    const [r, e] = [relay, endpoint];
    const stop = () => {
      closeQuietly(remote);
      closeSocket(r);
      try {
        e.close();
      } catch { /* closed */ }
    };
    conn.closed.then(stop, stop);
    pumps.finally(() => {
      try {
        conn.close({ closeCode: 0, reason: "" });
      } catch { /* closed */ }
    });
    return conn;
  } catch (err) {
    closeQuietly(remote);
    if (relay) closeSocket(relay);
    try {
      endpoint?.close();
    } catch { /* closed */ }
    throw err;
  }
}

function closeSocket(s: Deno.DatagramConn): void {
  try {
    s.close();
  } catch { /* closed */ }
}

/** Relays both ways until either side ends; resolves then. */
function bridge(relay: Deno.DatagramConn, endpointPort: number, remote: PacketConn, server: Address) {
  const endpoint: Deno.NetAddr = { transport: "udp", hostname: LOOPBACK, port: endpointPort };
  const out = (async () => {
    while (true) {
      const [data, from] = await relay.receive();
      const a = from as Deno.NetAddr;
      if (a.port !== endpointPort || a.hostname !== LOOPBACK) continue; // not our QUIC endpoint
      await remote.writePacket(data, server);
    }
  })();
  const back = (async () => {
    while (true) {
      const p = await remote.readPacket();
      if (!p) return;
      await relay.send(p.data, endpoint);
    }
  })();
  return Promise.race([out, back]).catch(() => {}).finally(() => {
    closeQuietly(remote);
    closeSocket(relay);
  });
}
