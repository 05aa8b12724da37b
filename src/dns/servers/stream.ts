/**
 * RFC 7766 DNS over a byte stream (TCP, TLS): each message is prefixed by its 16-bit length. One
 * connection carries many queries at once (pipelining); each gets a fresh random id, and answers
 * are matched to their queries by id in any order. A closed connection is replaced on the next
 * query; a query caught on a reused connection that closes before answering is sent once more.
 */
import type { Conn } from "../../adapter/mod.ts";
import { DnsError } from "../../common/errors.ts";
import { closeQuietly, writeAll } from "../../net/relay.ts";
import { checkQuery, checkResponse, messageId, randomId, withId } from "./packet.ts";
import { abortable, abortError, asDnsError } from "./util.ts";

interface Pending {
  query: Uint8Array;
  resolve(b: Uint8Array): void;
  reject(e: unknown): void;
}

class Session {
  readonly pending = new Map<number, Pending>();
  closed = false;
  /** Whether an earlier query was answered on this connection (it is "reused"). */
  answered = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly conn: Conn, private readonly what: string, private readonly onClose: () => void) {
    this.readLoop();
  }

  write(frame: Uint8Array): Promise<void> {
    const p = this.writing.then(() => writeAll(this.conn, frame));
    this.writing = p.catch(() => {});
    return p;
  }

  private async readLoop(): Promise<void> {
    let buf = new Uint8Array(4096);
    let end = 0;
    let error: unknown;
    try {
      while (true) {
        if (end === buf.length) {
          const grown = new Uint8Array(buf.length * 2);
          grown.set(buf);
          buf = grown;
        }
        const n = await this.conn.read(buf.subarray(end));
        if (n === null) break;
        end += n;
        let start = 0;
        while (end - start >= 2) {
          const len = (buf[start] << 8) | buf[start + 1];
          if (end - start < 2 + len) break;
          this.deliver(buf.slice(start + 2, start + 2 + len));
          start += 2 + len;
        }
        if (start > 0) {
          buf.copyWithin(0, start, end);
          end -= start;
        }
      }
    } catch (e) {
      error = e;
    }
    this.shut(error ?? new DnsError(`${this.what}: connection closed by the server`));
  }

  private deliver(msg: Uint8Array): void {
    if (msg.length < 2) return;
    const p = this.pending.get(messageId(msg));
    if (!p) return; // an answer to a query given up on
    this.pending.delete(messageId(msg));
    this.answered = true;
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

export class StreamExchanger {
  private session?: Promise<Session>;

  constructor(
    private readonly connect: (signal: AbortSignal) => Promise<Conn>,
    private readonly what: string,
  ) {}

  private open(signal: AbortSignal): Promise<Session> {
    if (!this.session) {
      const p = this.connect(signal).then((conn) => {
        const s: Session = new Session(conn, this.what, () => {
          if (this.session === p) this.session = undefined;
        });
        return s;
      });
      this.session = p;
      p.catch(() => {
        if (this.session === p) this.session = undefined;
      });
    }
    return this.session;
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    checkQuery(query);
    for (let attempt = 0;; attempt++) {
      if (signal.aborted) throw abortError(signal, this.what);
      const session = await abortable(this.open(signal), signal, this.what);
      const reused = session.answered;
      try {
        return await this.once(session, query, signal);
      } catch (e) {
        // The server closed an idle connection as we wrote: try once on a new one.
        if (attempt === 0 && reused && session.closed && !signal.aborted) continue;
        throw e;
      }
    }
  }

  private once(session: Session, query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    let id = randomId();
    while (session.pending.has(id)) id = randomId();
    const sent = withId(query, id);
    const frame = new Uint8Array(sent.length + 2);
    frame[0] = sent.length >> 8;
    frame[1] = sent.length & 0xff;
    frame.set(sent, 2);
    const answer = new Promise<Uint8Array>((resolve, reject) => {
      session.pending.set(id, { query: sent, resolve, reject });
    });
    session.write(frame).catch((e) => session.shut(e));
    return abortable(answer, signal, this.what).then(
      (r) => withId(r, messageId(query)),
      (e) => {
        session.pending.delete(id);
        throw e;
      },
    );
  }

  close(): void {
    const s = this.session;
    this.session = undefined;
    s?.then((x) => x.shut(new DnsError(`${this.what}: closed`)), () => {});
  }
}
