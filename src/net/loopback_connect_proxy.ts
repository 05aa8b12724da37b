/**
 * A private HTTP CONNECT proxy on loopback that always dials one fixed destination through a
 * given function (a detour's dialer). It lets Deno's fetch (HTTP/2, TLS by URL host) reach a
 * server through a proxied stream: `Deno.createHttpClient({ proxy })` tunnels https:// URLs with
 * CONNECT. Random Basic credentials keep other local processes out.
 */
import type { Conn } from "../adapter/mod.ts";
import { BufferedConn } from "./buffered_conn.ts";
import { closeQuietly, relay, writeAll } from "./relay.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("latin1");

export class LoopbackConnectProxy {
  readonly url: string;
  readonly basicAuth: { username: string; password: string };
  private readonly listener: Deno.TcpListener;
  private readonly expected: string;
  private closed = false;

  constructor(private readonly dial: () => Promise<Conn>) {
    this.listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.url = `http://127.0.0.1:${(this.listener.addr as Deno.NetAddr).port}`;
    const secret = () =>
      Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16)).join("");
    this.basicAuth = { username: secret(), password: secret() };
    this.expected = `Basic ${btoa(`${this.basicAuth.username}:${this.basicAuth.password}`)}`;
    this.accept();
  }

  private async accept(): Promise<void> {
    while (!this.closed) {
      let conn: Deno.TcpConn;
      try {
        conn = await this.listener.accept();
      } catch {
        return;
      }
      this.serve(new BufferedConn(conn)).catch(() => closeQuietly(conn));
    }
  }

  private async serve(conn: BufferedConn): Promise<void> {
    let end: number;
    while ((end = headEnd(conn.buffered())) < 0) {
      if (conn.buffered().length > 8192 || !(await conn.fill())) return closeQuietly(conn);
    }
    const head = decoder.decode(conn.buffered().subarray(0, end));
    conn.consume(end);
    const auth = /\r\nproxy-authorization:\s*([^\r]+)/i.exec(head)?.[1]?.trim();
    if (!head.startsWith("CONNECT ") || auth !== this.expected) {
      await writeAll(
        conn,
        encoder.encode("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n"),
      );
      return closeQuietly(conn);
    }
    let remote: Conn;
    try {
      remote = await this.dial();
    } catch {
      await writeAll(conn, encoder.encode("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"));
      return closeQuietly(conn);
    }
    await writeAll(conn, encoder.encode("HTTP/1.1 200 Connection established\r\n\r\n"));
    await relay(conn, remote);
  }

  close(): void {
    this.closed = true;
    try {
      this.listener.close();
    } catch { /* closed */ }
  }
}

function headEnd(b: Uint8Array): number {
  for (let i = 3; i < b.length; i++) {
    if (b[i] === 10 && b[i - 1] === 13 && b[i - 2] === 10 && b[i - 3] === 13) return i + 1;
  }
  return -1;
}
