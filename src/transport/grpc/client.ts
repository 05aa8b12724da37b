/**
 * The grpc transport client (sing-box `v2raygrpclite`, wire-compatible with its full gRPC client
 * and Xray's "gun"): a POST to `/<service_name>/Tun` per stream, all streams multiplexed on one
 * HTTP/2 connection (h2 by ALPN over TLS, prior knowledge without), with the PING health check
 * of `idle_timeout`/`ping_timeout`.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { TransportModel } from "../../config/mod.ts";
import { H2Pool } from "../h2/pool.ts";
import { authority } from "../http1.ts";
import type { TransportClient } from "../types.ts";
import { GunConn } from "./conn.ts";

type GrpcModel = Extract<TransportModel, { type: "grpc" }>;

export function grpcPath(serviceName: string | undefined): string {
  return `/${encodeURIComponent(serviceName ?? "")}/Tun`;
}

export function grpcClient(m: GrpcModel, server: Address, tls: boolean): TransportClient {
  const pool = new H2Pool({ idleTimeoutMs: m.idle_timeout, pingTimeoutMs: m.ping_timeout });
  const headers: [string, string][] = [
    [":method", "POST"],
    [":scheme", tls ? "https" : "http"],
    [":authority", authority(server.host, server.port)],
    [":path", grpcPath(m.service_name)],
    ["content-type", "application/grpc"],
    ["user-agent", "grpc-go/1.48.0"],
    ["te", "trailers"],
  ];
  return {
    alpn: ["h2"],
    async open(dial, _host, signal) {
      const session = await pool.get(dial, signal);
      const stream = session.request(headers);
      stream.beforeRead = (h) => {
        const status = h.find(([k]) => k === ":status")?.[1];
        if (status !== "200") throw new ProtocolError(`gRPC server answered HTTP "${status}"`);
      };
      return new GunConn(stream);
    },
    close: () => pool.close(),
  };
}
