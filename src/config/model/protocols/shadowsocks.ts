/** The `shadowsocks` inbound and outbound (sing-box `inbound/shadowsocks.md`, `outbound/shadowsocks.md`). */
import { z } from "zod";
import { networks, serverPort, typedShape, withTag } from "../common.ts";
import { dialShape } from "../dial.ts";
import { listenShape } from "../listen.ts";
import { InboundMultiplex, OutboundMultiplex } from "../multiplex.ts";

export const SHADOWSOCKS_METHODS = [
  "none",
  "aes-128-gcm",
  "aes-256-gcm",
  "chacha20-ietf-poly1305",
  "2022-blake3-aes-128-gcm",
  "2022-blake3-aes-256-gcm",
  "2022-blake3-chacha20-poly1305",
] as const;

const method = () =>
  z.enum(SHADOWSOCKS_METHODS, {
    error: (iss) =>
      iss.input === undefined
        ? undefined
        : `unsupported shadowsocks method: expected one of ${SHADOWSOCKS_METHODS.join(", ")}`,
  });

export const ShadowsocksOutbound = z
  .strictObject({
    ...typedShape("shadowsocks"),
    ...dialShape,
    server: z.string(),
    server_port: serverPort(),
    method: method(),
    password: z.string(),
    plugin: z.string().optional(),
    plugin_opts: z.string().optional(),
    /** One network only; both when unset. */
    network: z.enum(["tcp", "udp"]).optional(),
    udp_over_tcp: z.union([z.boolean(), z.looseObject({})]).optional(),
    multiplex: OutboundMultiplex.optional(),
  })
  .transform(withTag);

export const ShadowsocksUser = z.strictObject({ name: z.string().optional(), password: z.string() });

export const ShadowsocksInbound = z
  .strictObject({
    ...typedShape("shadowsocks"),
    ...listenShape,
    network: networks().optional(),
    method: method(),
    password: z.string().optional(),
    users: z.array(ShadowsocksUser).optional(),
    destinations: z.array(z.looseObject({})).optional(),
    managed: z.boolean().optional(),
    multiplex: InboundMultiplex.optional(),
  })
  .transform(withTag);

export type ShadowsocksOutboundModel = z.output<typeof ShadowsocksOutbound>;
export type ShadowsocksInboundModel = z.output<typeof ShadowsocksInbound>;
