/**
 * `udp`: plain DNS over UDP through `Dialer.listenPacket`, so a detour works. One packet session
 * is shared by every query; each query gets a fresh random id, answers are matched by id and
 * source, stray packets are ignored, and a truncated (TC) answer is asked again over TCP.
 */
import type { Address, Dialer, PacketConn } from "../../adapter/mod.ts";
import { isIpLiteral } from "../../adapter/mod.ts";
import { DnsError } from "../../common/errors.ts";
import { closeQuietly } from "../../net/relay.ts";
import type { DnsTransport } from "../transport.ts";
import {
  checkQuery,
  checkResponse,
  firstQuestion,
  isResponse,
  isTruncated,
  messageId,
  randomId,
  withId,
} from "./packet.ts";
import { TcpTransport } from "./tcp.ts";
import { abortable, abortError, asDnsError, describe, dnsMetadata, sameHost } from "./util.ts";

interface Pending {
  query: Uint8Array;
  resolve(b: Uint8Array): void;
  reject(e: unknown): void;
}

class Session {
  readonly pending = new Map<number, Pending>();
  closed = false;

  constructor(
    readonly conn: PacketConn,
    private readonly server: Address,
    private readonly what: string,
    private readonly onClose: () => void,
  ) {
    this.readLoop();
  }

  private async readLoop(): Promise<void> {
    let error: unknown;
    try {
      while (true) {
        const p = await this.conn.readPacket();
        if (!p) break;
        if (p.addr.port !== this.server.port) continue;
        if (isIpLiteral(this.server.host) && !sameHost(p.addr.host, this.server.host)) continue;
        this.deliver(p.data);
      }
    } catch (e) {
      error = e;
    }
    this.shut(error ?? new DnsError(`${this.what}: socket closed`));
  }

  private deliver(msg: Uint8Array): void {
    if (msg.length < 12 || !isResponse(msg)) return;
    const p = this.pending.get(messageId(msg));
    if (!p) return;
    // An answer to another question with our id is someone else's packet: keep waiting.
    try {
      const q = firstQuestion(p.query);
      const r = firstQuestion(msg);
      if (q && r && (q.name !== r.name || q.type !== r.type)) return;
    } catch { /* malformed: reported below */ }
    this.pending.delete(messageId(msg));
    try {
      checkResponse(p.query, msg);
      p.resolve(msg);
    } catch (e) {
      p.reject(e);
    }
  }

  shut(error: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    closeQuietly(this.conn);
    for (const p of this.pending.values()) p.reject(asDnsError(error, this.what));
    this.pending.clear();
  }
}

export class UdpTransport implements DnsTransport {
  readonly type = "udp";
  private session?: Promise<Session>;
  private tcp?: TcpTransport;
  private readonly what: string;

  constructor(readonly tag: string, private readonly server: Address, private readonly dialer: Dialer) {
    this.what = describe("udp", server);
  }

  private open(signal: AbortSignal): Promise<Session> {
    if (!this.session) {
      const metadata = dnsMetadata(this.tag, this.server, "udp");
      const p = this.dialer.listenPacket(this.server, metadata, signal).then((conn) =>
        new Session(conn, this.server, this.what, () => {
          if (this.session === p) this.session = undefined;
        })
      );
      this.session = p;
      p.catch(() => {
        if (this.session === p) this.session = undefined;
      });
    }
    return this.session;
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    checkQuery(query);
    if (signal.aborted) throw abortError(signal, this.what);
    const session = await abortable(this.open(signal), signal, this.what);
    let id = randomId();
    while (session.pending.has(id)) id = randomId();
    const sent = withId(query, id);
    const answer = new Promise<Uint8Array>((resolve, reject) => {
      session.pending.set(id, { query: sent, resolve, reject });
    });
    session.conn.writePacket(sent, this.server).catch((e) => {
      const p = session.pending.get(id);
      session.pending.delete(id);
      p?.reject(asDnsError(e, this.what));
    });
    let response: Uint8Array;
    try {
      response = await abortable(answer, signal, this.what);
    } finally {
      session.pending.delete(id);
    }
    if (isTruncated(response)) {
      this.tcp ??= new TcpTransport(this.tag, this.server, this.dialer);
      return this.tcp.exchange(query, signal);
    }
    return withId(response, messageId(query));
  }

  close(): void {
    const s = this.session;
    this.session = undefined;
    s?.then((x) => x.shut(new DnsError(`${this.what}: closed`)), () => {});
    this.tcp?.close();
  }
}
