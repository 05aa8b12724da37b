/**
 * The inbound's UDP side: one socket, sessions by client address (none, SIP004) or by client
 * session id (SIP022, which survives the client's address changing). Packets that fail to open
 * are dropped silently; sessions end when the router closes them (idle timeout).
 */
import type { Address, Packet, PacketConn } from "../../adapter/mod.ts";
import type { Aead } from "../../crypto/mod.ts";
import { createAead } from "../../crypto/mod.ts";
import type { Logger } from "../../common/log.ts";
import { errorText } from "../../common/errors.ts";
import { PacketQueue } from "../../common/packet_queue.ts";
import { sessionSubkey } from "./kdf.ts";
import type { Method } from "./method.ts";
import { ReplayWindow } from "./replay_window.ts";
import { open2022, openLegacy, seal2022, sealLegacy } from "./udp_codec.ts";
import type { UserTable } from "./users.ts";

export interface UdpServerOptions {
  method: Method;
  users: () => UserTable;
  now?: () => number;
  logger: Logger;
  onSession: (session: PacketConn, client: Address, user?: string) => Promise<void>;
}

/** Sessions kept at most: past it new sessions are refused (memory stays bounded). */
const MAX_SESSIONS = 4096;

export class ShadowsocksUdpServer {
  private socket?: Deno.DatagramConn;
  private readonly sessions = new Map<string, UdpSession>();
  private closed = false;
  private loop?: Promise<void>;

  constructor(private readonly o: UdpServerOptions) {}

  get addr(): Deno.NetAddr | undefined {
    return this.socket?.addr as Deno.NetAddr | undefined;
  }

  listen(hostname: string, port: number): void {
    const socket = Deno.listenDatagram({ transport: "udp", hostname, port });
    this.socket = socket;
    this.loop = (async () => {
      while (!this.closed) {
        let data: Uint8Array, addr: Deno.Addr;
        try {
          [data, addr] = await socket.receive();
        } catch (e) {
          if (!this.closed) this.o.logger.warn(`UDP receive failed: ${errorText(e)}`);
          return;
        }
        try {
          this.receive(data, addr as Deno.NetAddr);
        } catch (e) {
          this.o.logger.debug(`dropped UDP packet from ${(addr as Deno.NetAddr).hostname}: ${errorText(e)}`);
        }
      }
    })();
  }

  private receive(data: Uint8Array, from: Deno.NetAddr): void {
    const m = this.o.method;
    const table = this.o.users();
    const nowS = (this.o.now ?? Date.now)() / 1000;
    if (m.kind !== "2022") {
      const key = `${from.hostname}|${from.port}`;
      const existing = this.sessions.get(key);
      // The session's own user first: trial decryption costs one try per user otherwise.
      const keys = existing
        ? [existing.userKey, ...table.users.map((u) => u.key)]
        : table.users.map((u) => u.key);
      const d = openLegacy(m, keys, data);
      const user = table.users[existing ? Math.max(0, d.index - 1) : d.index];
      const s = existing ?? this.open(key, from, user.key, user.name);
      s?.push({ data: d.payload, addr: d.addr }, from);
      return;
    }
    const multi = table.serverKey !== undefined;
    const d = open2022(
      m,
      table.serverKey ?? table.users[0].key,
      data,
      false,
      nowS,
      multi ? (hash) => table.byHash.get(String.fromCharCode(...hash))?.key : undefined,
      (id, userKey) => {
        const s = this.sessions.get(hex(id));
        return s && s.userKey === userKey ? s.aeadIn(id) : undefined;
      },
    );
    const key = hex(d.header.sessionId);
    const user = multi ? table.users.find((u) => u.key === d.userKey) : table.users[0];
    const s = this.sessions.get(key) ?? this.open(key, from, d.userKey, user?.name, d.header.sessionId);
    if (!s || !s.window.accept(Number(d.header.packetId))) return;
    s.push({ data: d.payload, addr: d.addr }, from);
  }

  private open(
    key: string,
    from: Deno.NetAddr,
    userKey: Uint8Array,
    user?: string,
    clientSession?: Uint8Array,
  ) {
    if (this.sessions.size >= MAX_SESSIONS) return undefined;
    const s = new UdpSession(this.socket!, this.o.method, userKey, user, from, clientSession, this.o.now);
    this.sessions.set(key, s);
    this.o.onSession(s, { host: from.hostname, port: from.port }, user)
      .catch((e) => this.o.logger.debug(`UDP session ended: ${errorText(e)}`))
      .finally(() => {
        s.close();
        this.sessions.delete(key);
      });
    return s;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.sessions.values()) s.close();
    try {
      this.socket?.close();
    } catch { /* closed */ }
    await this.loop;
  }
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

class UdpSession implements PacketConn {
  private readonly queue = new PacketQueue<Packet>();
  readonly window = new ReplayWindow();
  private readonly serverSession = crypto.getRandomValues(new Uint8Array(8));
  private packetId = 0n;
  private inAead?: Aead;
  private outAead?: Aead;

  constructor(
    private readonly socket: Deno.DatagramConn,
    private readonly method: Method,
    readonly userKey: Uint8Array,
    readonly user: string | undefined,
    private client: Deno.NetAddr,
    private readonly clientSession: Uint8Array | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  aeadIn(id: Uint8Array): Aead {
    return this.inAead ??= createAead(this.method.aead, sessionSubkey(this.userKey, id));
  }

  push(p: Packet, from: Deno.NetAddr): void {
    this.client = from; // follow the client's address (NAT rebinding), as SIP022 allows
    this.queue.push(p);
  }

  readPacket(): Promise<Packet | null> {
    return this.queue.shift();
  }

  async writePacket(data: Uint8Array, addr: Address): Promise<void> {
    if (this.queue.closed) return;
    const m = this.method;
    let packet: Uint8Array;
    if (m.kind !== "2022") packet = sealLegacy(m, this.userKey, addr, data);
    else {
      if (m.aead !== "chacha20-poly1305") {
        this.outAead ??= createAead(m.aead, sessionSubkey(this.userKey, this.serverSession));
      }
      packet = seal2022(
        m,
        [this.userKey],
        {
          sessionId: this.serverSession,
          packetId: this.packetId++,
          type: 1,
          timestamp: this.now() / 1000,
          clientSessionId: this.clientSession,
        },
        addr,
        data,
        this.outAead,
      );
    }
    await this.socket.send(packet, this.client);
  }

  close(): void {
    if (this.queue.closed) return;
    this.queue.close();
    this.inAead?.dispose();
    this.outAead?.dispose();
  }
}
