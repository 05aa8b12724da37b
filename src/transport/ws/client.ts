/**
 * The ws transport client (sing-box `transport/v2raywebsocket`): an HTTP/1.1 upgrade on `path`
 * with the configured headers; Host is the `Host` header when given, else the server's host:port.
 * With `max_early_data`, the handshake waits for the first write and carries up to that many
 * bytes: base64url in the `early_data_header_name` header (Xray uses Sec-WebSocket-Protocol), or
 * appended to the path when the header name is empty (sing-box's default).
 */
import type { Address, Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { TransportModel } from "../../config/mod.ts";
import { writeAll } from "../../net/relay.ts";
import { authority, buffered, buildHead, headerPairs, normalizePath, readHead } from "../http1.ts";
import type { TransportClient } from "../types.ts";
import { WsConn } from "./conn.ts";
import { acceptFor, encodeEarlyData, newKey } from "./handshake.ts";

type WsModel = Extract<TransportModel, { type: "ws" }>;
type Dial = (signal?: AbortSignal) => Promise<Conn>;

export function wsClient(m: WsModel, server: Address): TransportClient {
  const path = normalizePath(m.path);
  const pairs = headerPairs(m.headers as Record<string, string | string[]>);
  const hostHeader = pairs.find(([k]) => k.toLowerCase() === "host")?.[1] ??
    authority(server.host, server.port);
  const rest = pairs.filter(([k]) => k.toLowerCase() !== "host");
  if (!rest.some(([k]) => k.toLowerCase() === "user-agent")) rest.push(["User-Agent", "Go-http-client/1.1"]);
  const maxEarly = m.max_early_data ?? 0;
  const earlyHeader = m.early_data_header_name ?? "";

  const handshake = async (dial: Dial, early: Uint8Array, signal?: AbortSignal): Promise<WsConn> => {
    const raw = await dial(signal);
    try {
      const key = newKey();
      let target = path;
      const headers: [string, string][] = [
        ["Host", hostHeader],
        ["Connection", "Upgrade"],
        ["Upgrade", "websocket"],
        ["Sec-WebSocket-Key", key],
        ["Sec-WebSocket-Version", "13"],
        ...rest,
      ];
      if (early.length > 0) {
        if (earlyHeader) headers.push([earlyHeader, encodeEarlyData(early)]);
        else target += encodeEarlyData(early);
      }
      await writeAll(raw, buildHead(`GET ${target} HTTP/1.1`, headers));
      const conn = buffered(raw);
      const res = await readHead(conn);
      if (res.start[1] !== "101") {
        throw new ProtocolError(`WebSocket upgrade refused: HTTP ${res.start[1]} ${res.start[2]}`);
      }
      if (res.headers.get("sec-websocket-accept") !== await acceptFor(key)) {
        throw new ProtocolError("WebSocket upgrade answer has a wrong Sec-WebSocket-Accept");
      }
      return new WsConn(conn, true);
    } catch (e) {
      raw.close();
      throw e;
    }
  };

  return {
    alpn: ["http/1.1"],
    async open(dial, _host, signal) {
      if (maxEarly <= 0) return await handshake(dial, new Uint8Array(0), signal);
      return new EarlyConn((first) => handshake(dial, first), maxEarly);
    },
    close() {},
  };
}

/** Opens the WebSocket on the first write, with up to `max` bytes of it as early data. */
class EarlyConn implements Conn {
  private conn: Promise<WsConn> | undefined;
  private ready: Promise<WsConn>;
  private start!: (c: Promise<WsConn>) => void;
  private closed = false;

  constructor(private readonly create: (early: Uint8Array) => Promise<WsConn>, private readonly max: number) {
    this.ready = new Promise((r) => (this.start = r)).then((p) => p as Promise<WsConn>);
    this.ready.catch(() => {});
  }

  private open(early: Uint8Array): Promise<WsConn> {
    if (!this.conn) {
      this.conn = this.create(early);
      this.start(this.conn);
    }
    return this.conn;
  }

  async write(p: Uint8Array): Promise<number> {
    if (this.conn) return await (await this.conn).write(p);
    const early = p.subarray(0, Math.min(p.length, this.max));
    const ws = await this.open(early.slice());
    if (p.length > early.length) await ws.write(p.subarray(early.length));
    return p.length;
  }

  async read(p: Uint8Array): Promise<number | null> {
    return await (await this.ready).read(p);
  }

  async closeWrite(): Promise<void> {
    await (await this.open(new Uint8Array(0))).closeWrite();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.conn) this.conn.then((c) => c.close(), () => {});
    else this.start(Promise.reject(new ProtocolError("WebSocket connection is closed")));
  }
}
