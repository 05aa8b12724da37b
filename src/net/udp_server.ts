/**
 * A UDP listener demultiplexed into one PacketConn per client address (direct inbound, DNS
 * listeners). A session ends when its consumer closes it; the router closes idle ones.
 */
import type { Address, Packet, PacketConn } from "../adapter/mod.ts";
import type { Logger } from "../common/log.ts";
import { errorText } from "../common/errors.ts";

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
  private readonly queue: Uint8Array[] = [];
  private waiter?: () => void;
  private closed = false;

  constructor(
    private readonly socket: Deno.DatagramConn,
    private readonly client: Deno.NetAddr,
    private readonly destination: Address,
    private readonly onClose: () => void,
  ) {}

  push(data: Uint8Array): void {
    if (this.closed || this.queue.length >= 1024) return;
    this.queue.push(data);
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  async readPacket(): Promise<Packet | null> {
    while (this.queue.length === 0) {
      if (this.closed) return null;
      await new Promise<void>((r) => (this.waiter = r));
    }
    return { data: this.queue.shift()!, addr: this.destination };
  }

  async writePacket(data: Uint8Array): Promise<void> {
    if (!this.closed) await this.socket.send(data, this.client);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
