/**
 * The http transport client (sing-box `v2rayhttp`). With TLS: HTTP/2, one request stream per
 * tunnel (method PUT unless set, Host picked at random from `host`, v2ray's "www.example.com"
 * when empty), multiplexed on one connection. Without TLS: HTTP/1.1, one request per connection
 * (Host: a `host` entry or the server address), then raw bytes after a 200 answer.
 */
import type { Address, Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { TransportModel } from "../../config/mod.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { writeAll } from "../../net/relay.ts";
import { H2Pool } from "../h2/pool.ts";
import { buildHead, headerPairs, normalizePath, readHead } from "../http1.ts";
import type { TransportClient } from "../types.ts";

type HttpModel = Extract<TransportModel, { type: "http" }>;

export function httpClient(m: HttpModel, server: Address, tls: boolean): TransportClient {
  const path = normalizePath(m.path);
  const method = m.method || "PUT";
  const hosts = (m.host ?? []) as string[];
  const extra = headerPairs(m.headers as Record<string, string | string[]>)
    .filter(([k]) => k.toLowerCase() !== "host");
  const pickHost = (fallback: string) =>
    hosts.length ? hosts[Math.floor(Math.random() * hosts.length)] : fallback;

  if (!tls) {
    return {
      alpn: ["http/1.1"],
      async open(dial, _host, signal) {
        const raw = await dial(signal);
        const host = pickHost(server.host.includes(":") ? `[${server.host}]` : server.host);
        try {
          await writeAll(raw, buildHead(`${method} ${path} HTTP/1.1`, [["Host", host], ...extra]));
        } catch (e) {
          raw.close();
          throw e;
        }
        return new Http1Conn(new BufferedConn(raw, undefined, 4096));
      },
      close() {},
    };
  }

  const pool = new H2Pool({ idleTimeoutMs: m.idle_timeout, pingTimeoutMs: m.ping_timeout });
  return {
    alpn: ["h2"],
    async open(dial, _host, signal) {
      const session = await pool.get(dial, signal);
      const stream = session.request([
        [":method", method],
        [":scheme", "https"],
        [":authority", pickHost("www.example.com")],
        [":path", path],
        ...extra.map(([k, v]) => [k.toLowerCase(), v] as [string, string]),
      ]);
      stream.beforeRead = (h) => {
        const status = h.find(([k]) => k === ":status")?.[1];
        if (status !== "200") throw new ProtocolError(`HTTP/2 transport server answered "${status}"`);
      };
      return stream;
    },
    close: () => pool.close(),
  };
}

/** The tunnel after an HTTP/1.1 request: the first read waits for the 200 answer's head. */
class Http1Conn implements Conn {
  private answered: Promise<void> | undefined;
  constructor(private readonly conn: BufferedConn) {}

  async read(p: Uint8Array): Promise<number | null> {
    this.answered ??= readHead(this.conn).then((res) => {
      if (res.start[1] !== "200") throw new ProtocolError(`HTTP transport server answered "${res.start[1]}"`);
    });
    await this.answered;
    return await this.conn.read(p);
  }
  write(p: Uint8Array): Promise<number> {
    return this.conn.write(p);
  }
  closeWrite(): Promise<void> {
    return this.conn.closeWrite();
  }
  close(): void {
    this.conn.close();
  }
}
