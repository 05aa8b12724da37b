/** The V2Ray transport block (sing-box `shared/v2ray-transport.md`): one union on `type`. */
import { z } from "zod";
import { headers, strings } from "./common.ts";
import { duration } from "./duration.ts";

export const HttpTransport = z.strictObject({
  type: z.literal("http"),
  host: strings().optional(),
  path: z.string().optional(),
  method: z.string().optional(),
  headers: headers().optional(),
  idle_timeout: duration().optional(),
  ping_timeout: duration().optional(),
});

export const WsTransport = z.strictObject({
  type: z.literal("ws"),
  path: z.string().optional(),
  headers: headers().optional(),
  max_early_data: z.int().min(0).optional(),
  early_data_header_name: z.string().optional(),
});

export const QuicTransport = z.strictObject({ type: z.literal("quic") });

export const GrpcTransport = z.strictObject({
  type: z.literal("grpc"),
  service_name: z.string().optional(),
  idle_timeout: duration().optional(),
  ping_timeout: duration().optional(),
  permit_without_stream: z.boolean().optional(),
});

export const HttpUpgradeTransport = z.strictObject({
  type: z.literal("httpupgrade"),
  host: z.string().optional(),
  path: z.string().optional(),
  headers: headers().optional(),
});

export const Transport = z.discriminatedUnion("type", [
  HttpTransport,
  WsTransport,
  QuicTransport,
  GrpcTransport,
  HttpUpgradeTransport,
]);

export type TransportModel = z.output<typeof Transport>;
