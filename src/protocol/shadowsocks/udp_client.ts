/** The outbound's UDP session: packets to and from the server, each sealed on its own. */
import type { Address, Packet, PacketConn } from "../../adapter/mod.ts";
import { type Aead, createAead } from "../../crypto/mod.ts";
import { sessionSubkey } from "./kdf.ts";
import type { Method } from "./method.ts";
import { ReplayWindow } from "./replay_window.ts";
import { open2022, openLegacy, seal2022, sealLegacy } from "./udp_codec.ts";

export class ShadowsocksPacketConn implements PacketConn {
  private readonly session = crypto.getRandomValues(new Uint8Array(8));
  private packetId = 0n;
  private outAead?: Aead;
  /** The server's session: its id and replay window; a new id (server restart) starts over. */
  private serverSession?: { id: string; window: ReplayWindow; aead?: Aead };
  private closed = false;

  constructor(
    private readonly inner: PacketConn,
    private readonly server: Address,
    private readonly method: Method,
    private readonly keys: Uint8Array[],
    private readonly now: () => number = Date.now,
  ) {}

  private get userKey(): Uint8Array {
    return this.keys[this.keys.length - 1];
  }

  async readPacket(): Promise<Packet | null> {
    const m = this.method;
    while (!this.closed) {
      const p = await this.inner.readPacket();
      if (!p) return null;
      try {
        if (m.kind !== "2022") {
          const d = openLegacy(m, [this.userKey], p.data);
          return { data: d.payload, addr: d.addr };
        }
        const d = open2022(m, this.userKey, p.data, true, this.now() / 1000, undefined, (id) => {
          const s = this.serverSession;
          if (!s || s.id !== String(id) || m.aead === "chacha20-poly1305") return undefined;
          return s.aead ??= createAead(m.aead, sessionSubkey(this.userKey, id));
        });
        if (!d.header.clientSessionId!.every((b, i) => b === this.session[i])) continue;
        const id = String(d.header.sessionId);
        if (this.serverSession?.id !== id) {
          this.serverSession?.aead?.dispose();
          this.serverSession = { id, window: new ReplayWindow() };
        }
        if (!this.serverSession.window.accept(Number(d.header.packetId))) continue;
        return { data: d.payload, addr: d.addr };
      } catch {
        continue; // not ours or damaged: UDP drops it
      }
    }
    return null;
  }

  writePacket(data: Uint8Array, addr: Address): Promise<void> {
    const m = this.method;
    if (m.kind !== "2022") {
      return this.inner.writePacket(sealLegacy(m, this.userKey, addr, data), this.server);
    }
    if (m.aead !== "chacha20-poly1305") {
      this.outAead ??= createAead(m.aead, sessionSubkey(this.userKey, this.session));
    }
    const packet = seal2022(
      m,
      this.keys,
      {
        sessionId: this.session,
        packetId: this.packetId++,
        type: 0,
        timestamp: this.now() / 1000,
      },
      addr,
      data,
      this.outAead,
    );
    return this.inner.writePacket(packet, this.server);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.inner.close();
    this.outAead?.dispose();
    this.serverSession?.aead?.dispose();
  }
}
