/**
 * The transport layer built from a `transport` block: ws, httpupgrade, grpc (gun) and http
 * (HTTP/2, or HTTP/1.1 without TLS). `quic` is refused: it needs a QUIC stream per connection
 * with v2ray's own handshake, which Deno's QUIC cannot offer without TLS settings we do not carry.
 */
import type { Address } from "../adapter/mod.ts";
import type { TransportClient, TransportServer } from "./types.ts";
import { ConfigError } from "../common/errors.ts";
import type { TransportModel } from "../config/mod.ts";
import { grpcClient } from "./grpc/client.ts";
import { grpcServer } from "./grpc/server.ts";
import { httpClient } from "./http/client.ts";
import { httpServer } from "./http/server.ts";
import { httpUpgradeClient } from "./http_upgrade/client.ts";
import { httpUpgradeServer } from "./http_upgrade/server.ts";
import { wsClient } from "./ws/client.ts";
import { wsServer } from "./ws/server.ts";

export type { TransportClient, TransportServer } from "./types.ts";

export interface TransportContext {
  /** The server the client reaches (default Host / :authority). */
  server: Address;
  /** Whether TLS runs under the transport (http: HTTP/2 with TLS, HTTP/1.1 without). */
  tls: boolean;
}

export function transportClient(t: TransportModel, path = "", ctx?: TransportContext): TransportClient {
  const server = ctx?.server ?? { host: "localhost", port: 80 };
  switch (t.type) {
    case "ws":
      return wsClient(t, server);
    case "httpupgrade":
      return httpUpgradeClient(t, server);
    case "grpc":
      return grpcClient(t, server, ctx?.tls ?? false);
    case "http":
      return httpClient(t, server, ctx?.tls ?? false);
    default:
      return refuse(t, path);
  }
}

export function transportServer(t: TransportModel, path = "", ctx?: { tls: boolean }): TransportServer {
  switch (t.type) {
    case "ws":
      return wsServer(t);
    case "httpupgrade":
      return httpUpgradeServer(t);
    case "grpc":
      return grpcServer(t);
    case "http":
      return httpServer(t, ctx?.tls ?? false);
    default:
      return refuse(t, path);
  }
}

function refuse(t: TransportModel, path: string): never {
  throw new ConfigError(
    `${path}/transport/type`,
    `transport "${t.type}" is not supported: use "ws", "httpupgrade", "grpc" or "http"`,
  );
}
