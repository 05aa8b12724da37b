/**
 * The stream layers between a protocol and its TCP socket: TLS, then a transport (WebSocket,
 * HTTP upgrade, gRPC, HTTP/2). Protocols never build them: the engine hands each protocol a
 * ClientLayers (outbounds) or ServerLayers (inbounds) made from the item's `tls` and `transport`
 * blocks and the top-level `certificate` store.
 */
import type { Conn } from "./conn.ts";
import type { Address } from "./metadata.ts";

export interface LayerOptions {
  /** The item's `tls` block as the model holds it (absent or `enabled: false`: no TLS). */
  tls?: unknown;
  /** The item's `transport` block as the model holds it. */
  transport?: unknown;
}

export interface ClientLayerOptions extends LayerOptions {
  /** The server being reached: its host is the default TLS server name and HTTP Host. */
  server: Address;
  /** Where the item sits, for error messages ("/outbounds/2"). */
  path?: string;
}

export interface ClientLayers {
  /** True when nothing is layered: protocols may then use the raw Conn as is. */
  readonly empty: boolean;
  /**
   * Opens one stream to the server. `dialRaw` opens a TCP connection to it (through the detour);
   * multiplexing transports (gRPC, HTTP/2) may reuse an open connection instead of calling it.
   */
  open(dialRaw: (signal?: AbortSignal) => Promise<Conn>, signal?: AbortSignal): Promise<Conn>;
  /** Closes connections the layers keep open (multiplexing transports). */
  close(): void;
}

/** What the server side learned about a stream while layering it. */
export interface StreamInfo {
  /** ALPN protocol negotiated by TLS, when TLS ran. */
  alpn?: string;
  /** SNI the client sent, when TLS ran. */
  serverName?: string;
}

export type StreamHandler = (conn: Conn, source: Address, local: Address, info: StreamInfo) => Promise<void>;

export interface LayeredServer {
  readonly addr: Deno.NetAddr;
  close(): Promise<void>;
}

export interface ServerLayers {
  readonly empty: boolean;
  /** Listens on TCP and calls `handle` for every stream once TLS and the transport are through. */
  listen(hostname: string, port: number, handle: StreamHandler): LayeredServer;
}
