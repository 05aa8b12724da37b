/**
 * A UDP listener demultiplexed into one PacketConn per client address (direct inbound, DNS
 * listeners). A session ends when its consumer closes it; the router closes idle ones.
 */
import type { Address, Packet, PacketConn } from "../adapter/mod.ts";
import type { Logger } from "../common/log.ts";
import { errorText } from "../common/errors.ts";
import { PacketQueue } from "../common/packet_queue.ts";

export interface UdpServer {
  readonly addr: Deno.NetAddr;
  close(): Promise<void>;
}

export function serveUdp(
  hostname: string,
  port: number,
  logger: Logger,
  /** `destination` is what a client packet is addressed to as the session sees it. */
  destination: (client: Address) => Address,
  onSession: (session: PacketConn, client: Address) => Promise<void>,
): UdpServer {
  const socket = Deno.listenDatagram({ transport: "udp", hostname, port });
  const sessions = new Map<string, ClientSession>();
  let closed = false;
  const loop = (async () => {
    while (!closed) {
      let data: Uint8Array, addr: Deno.Addr;
      try {
        [data, addr] = await socket.receive();
      } catch (e) {
        if (!closed) logger.warn(`UDP receive failed: ${errorText(e)}`);
        return;
      }
      const a = addr as Deno.NetAddr;
      const key = `${a.hostname}|${a.port}`;
      let s = sessions.get(key);
      if (!s) {
        const client = { host: a.hostname, port: a.port };
        s = new ClientSession(socket, a, destination(client), () => sessions.delete(key));
        sessions.set(key, s);
        const session = s;
        onSession(session, client)
          .catch((e) => logger.debug(`UDP session from ${a.hostname}:${a.port} ended: ${errorText(e)}`))
          .finally(() => session.close());
      }
      s.push(data);
    }
  })();
  return {
    addr: socket.addr as Deno.NetAddr,
    async close() {
      closed = true;
      for (const s of sessions.values()) s.close();
      try {
        socket.close();
      } catch { /* closed */ }
      await loop;
    },
  };
}

class ClientSession implements PacketConn {
  private readonly queue = new PacketQueue<Uint8Array>();

  constructor(
    private readonly socket: Deno.DatagramConn,
    private readonly client: Deno.NetAddr,
    private readonly destination: Address,
    private readonly onClose: () => void,
  ) {}

  push(data: Uint8Array): void {
    this.queue.push(data);
  }

  async readPacket(): Promise<Packet | null> {
    const data = await this.queue.shift();
    return data && { data, addr: this.destination };
  }

  async writePacket(data: Uint8Array): Promise<void> {
    if (!this.queue.closed) await this.socket.send(data, this.client);
  }

  close(): void {
    if (this.queue.closed) return;
    this.queue.close();
    this.onClose();
  }
}
