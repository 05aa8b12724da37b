/**
 * The transport layer built from a `transport` block (ws, httpupgrade, grpc, http). Owned by the
 * transport work; until a type lands it is refused here with the item's path.
 */
import type { Conn } from "../adapter/mod.ts";
import { ConfigError } from "../common/errors.ts";
import type { TransportModel } from "../config/mod.ts";

export interface TransportClient {
  /** ALPN the transport needs from TLS (h2 for grpc and http), when it needs one. */
  readonly alpn?: string[];
  open(dialTls: (signal?: AbortSignal) => Promise<Conn>, host: string, signal?: AbortSignal): Promise<Conn>;
  close(): void;
}

export interface TransportServer {
  readonly alpn?: string[];
  /** Serves one accepted connection; calls `onStream` for each stream it carries. */
  serve(conn: Conn, onStream: (stream: Conn) => Promise<void>): Promise<void>;
}

export function transportClient(t: TransportModel, path = ""): TransportClient {
  throw new ConfigError(`${path}/transport/type`, `transport "${t.type}" is not implemented yet`);
}

export function transportServer(t: TransportModel, path = ""): TransportServer {
  throw new ConfigError(`${path}/transport/type`, `transport "${t.type}" is not implemented yet`);
}
