/** The `http` outbound: an HTTP proxy reached with CONNECT, with Basic auth and extra headers. */
import type {
  Address,
  ClientLayers,
  Conn,
  Dialer,
  Metadata,
  Network,
  Outbound,
  OutboundContext,
  PacketConn,
} from "../../adapter/mod.ts";
import { DialError, ProtocolError } from "../../common/errors.ts";
import { joinHostPort } from "../../common/address.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { writeAll } from "../../net/relay.ts";
import { boundedOpen } from "../../transport/bounded_open.ts";
import * as wire from "./wire.ts";

export interface HttpOutboundOptions {
  tag: string;
  server: string;
  server_port: number;
  username?: string;
  password?: string;
  path?: string;
  headers?: Record<string, string | string[]>;
  detour?: string;
  /** TLS to the proxy (the `tls` block): an HTTPS proxy. */
  tls?: unknown;
  /** Bounds the TCP connect, TLS and the CONNECT exchange together (ms). */
  connect_timeout?: number;
}

export class HttpOutbound implements Outbound {
  readonly type = "http";
  readonly tag: string;
  readonly networks: readonly Network[] = ["tcp"];
  readonly dependencies: readonly string[];
  private readonly dialer: Dialer;
  private readonly layers: ClientLayers;

  constructor(private readonly options: HttpOutboundOptions, ctx: OutboundContext) {
    this.tag = options.tag;
    this.dependencies = options.detour ? [options.detour] : [];
    this.dialer = ctx.dialer;
    this.layers = ctx.clientLayers({
      server: { host: options.server, port: options.server_port },
      tls: options.tls,
    });
  }

  async dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    const o = this.options;
    const server = { host: o.server, port: o.server_port };
    // A proxy that accepts and stays silent fails the dial after `connect_timeout`.
    return await boundedOpen(
      this.layers,
      (s) => this.dialer.dial(server, metadata, s),
      (raw) => connect(raw, destination, o),
      (c) => c.close(),
      { what: "HTTP proxy", server, timeoutMs: o.connect_timeout, signal },
    );
  }

  listenPacket(): Promise<PacketConn> {
    return Promise.reject(new DialError(`Outbound "${this.tag}" (http) does not carry UDP`));
  }
}

async function connect(raw: Conn, destination: Address, o: HttpOutboundOptions): Promise<Conn> {
  const authority = joinHostPort(destination.host, destination.port);
  const headers: [string, string][] = [["Host", authority]];
  for (const [k, v] of Object.entries(o.headers ?? {})) {
    for (const one of [v].flat()) headers.push([k, one]);
  }
  if (o.username) {
    const token = btoa(String.fromCharCode(...new TextEncoder().encode(`${o.username}:${o.password ?? ""}`)));
    headers.push(["Proxy-Authorization", `Basic ${token}`]);
  }
  const conn = new BufferedConn(raw, undefined, 4096);
  await writeAll(conn, wire.encodeHead(`CONNECT ${authority} HTTP/1.1`, headers));
  while (true) {
    const head = wire.decodeHead(conn.buffered(), "response");
    if (head) {
      conn.consume(head.length);
      const status = Number(head.startLine[1]);
      if (status < 200 || status > 299) {
        throw new DialError(`HTTP proxy answered ${status} ${head.startLine[2]}`.trim());
      }
      return conn;
    }
    if (!(await conn.fill(wire.MAX_HEAD))) throw new ProtocolError("HTTP proxy closed during CONNECT");
  }
}
