/**
 * A client's HTTP/2 connection reused for many streams, as sing-box's gRPC and HTTP/2 clients
 * do: one live session at a time; a new one is dialed when it died, got GOAWAY or is full.
 * Concurrent opens while dialing share that dial.
 */
import type { Conn } from "../../adapter/mod.ts";
import { H2Session, type SessionOptions } from "./session.ts";

export class H2Pool {
  private session: H2Session | undefined;
  private dialing: Promise<H2Session> | undefined;
  private closed = false;

  constructor(private readonly options: Omit<SessionOptions, "client" | "onRequest">) {}

  async get(dial: (signal?: AbortSignal) => Promise<Conn>, signal?: AbortSignal): Promise<H2Session> {
    if (this.session?.available) return this.session;
    if (!this.dialing) {
      this.dialing = (async () => {
        const conn = await dial(signal);
        const s = new H2Session(conn, { ...this.options, client: true });
        if (this.closed) s.close();
        const old = this.session;
        this.session = s;
        // A replaced session finishes its streams, then goes.
        if (old && old.activeStreams === 0) old.close();
        return s;
      })().finally(() => (this.dialing = undefined));
    }
    return await this.dialing;
  }

  close(): void {
    this.closed = true;
    this.session?.close();
    this.session = undefined;
  }
}
