/** What a transport offers the stack: a client that opens streams, a server that serves them. */
import type { Conn } from "../adapter/mod.ts";

export interface TransportClient {
  /** ALPN the transport needs from TLS (h2 for grpc and http, http/1.1 for ws and httpupgrade). */
  readonly alpn?: string[];
  /**
   * Opens one stream. `dialTls` opens a connection to the server (TCP, then TLS when configured);
   * multiplexing transports call it only when they have no live connection to reuse.
   */
  open(dialTls: (signal?: AbortSignal) => Promise<Conn>, host: string, signal?: AbortSignal): Promise<Conn>;
  /** Closes connections kept for reuse. */
  close(): void;
}

export interface TransportServer {
  readonly alpn?: string[];
  /** Serves one accepted connection; calls `onStream` for each stream it carries. */
  serve(conn: Conn, onStream: (stream: Conn) => Promise<void>): Promise<void>;
}
