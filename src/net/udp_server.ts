/**
 * A UDP listener demultiplexed into one PacketConn per client address (direct inbound, DNS
 * listeners). A session ends when its consumer closes it; the router closes idle ones.
 *
 * The socket is the batched one from platform/ where it can be (many datagrams per system call),
 * and a session's consumer may install a synchronous responder (`setResponder`): a datagram it
 * answers at once never becomes a promise (cached DNS answers under hijack-dns).
 */
import type { Address, Packet, PacketConn } from "../adapter/mod.ts";
import type { Logger } from "../common/log.ts";
import { errorText } from "../common/errors.ts";
import { PacketQueue } from "../common/packet_queue.ts";
import { openUdpSocket, type UdpPeer, type UdpSocket } from "../platform/udp_batch.ts";

export interface UdpServer {
  readonly addr: Deno.NetAddr;
  close(): Promise<void>;
}

/** Answers a datagram synchronously, or returns undefined to leave it to readPacket. */
export type SyncResponder = (data: Uint8Array) => Uint8Array | undefined;

/** A PacketConn that takes a synchronous responder (sessions of serveUdp). */
export interface RespondingPacketConn extends PacketConn {
  setResponder(responder: SyncResponder | undefined): void;
}

export function canRespond(conn: PacketConn): conn is RespondingPacketConn {
  return typeof (conn as Partial<RespondingPacketConn>).setResponder === "function";
}

export interface UdpServerOptions {
  /** false: Deno's own socket, never the batched one. */
  batch?: boolean;
}

export function serveUdp(
  hostname: string,
  port: number,
  logger: Logger,
  /** `destination` is what a client packet is addressed to as the session sees it. */
  destination: (client: Address) => Address,
  onSession: (session: PacketConn, client: Address) => Promise<void>,
  options: UdpServerOptions = {},
): UdpServer {
  const socket = openUdpSocket(hostname, port, { batch: options.batch });
  const sessions = new Map<number | string, ClientSession>();
  let closed = false;
  const loop = socket.run((data, key) => {
    let s = sessions.get(key);
    if (!s) {
      const peer = socket.peer();
      const client = { host: peer.hostname, port: peer.port };
      s = new ClientSession(socket, peer, destination(client), () => sessions.delete(key));
      sessions.set(key, s);
      const session = s;
      onSession(session, client)
        .catch((e) => logger.debug(`UDP session from ${peer.hostname}:${peer.port} ended: ${errorText(e)}`))
        .finally(() => session.close());
    }
    s.receive(data);
  }).catch((e) => {
    if (!closed) logger.warn(`UDP receive failed: ${errorText(e)}`);
  });
  return {
    addr: socket.addr,
    async close() {
      closed = true;
      for (const s of sessions.values()) s.close();
      await socket.close();
      await loop;
    },
  };
}

class ClientSession implements RespondingPacketConn {
  private readonly queue = new PacketQueue<Uint8Array>();
  private responder?: SyncResponder;

  constructor(
    private readonly socket: UdpSocket,
    private readonly client: UdpPeer,
    private readonly destination: Address,
    private readonly onClose: () => void,
  ) {}

  receive(data: Uint8Array): void {
    if (this.responder && !this.queue.closed) {
      const reply = this.responder(data);
      if (reply) {
        if (reply.length > 0) this.socket.send(reply, this.client);
        return;
      }
    }
    this.queue.push(data);
  }

  setResponder(responder: SyncResponder | undefined): void {
    this.responder = responder;
  }

  async readPacket(): Promise<Packet | null> {
    const data = await this.queue.shift();
    return data && { data, addr: this.destination };
  }

  writePacket(data: Uint8Array): Promise<void> {
    if (!this.queue.closed) this.socket.send(data, this.client);
    return Promise.resolve();
  }

  close(): void {
    if (this.queue.closed) return;
    this.queue.close();
    this.responder = undefined;
    this.onClose();
  }
}
