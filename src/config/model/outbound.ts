/** Outbounds: the types the model describes, as one union on `type`. */
import { z } from "zod";
import { headers, serverPort, typedShape, withTag } from "./common.ts";
import { dialShape } from "./dial.ts";
import { OutboundTls } from "./tls.ts";
import { FallbackOutbound, LoadBalanceOutbound, SelectorOutbound, UrlTestOutbound } from "./group.ts";
import { ShadowsocksOutbound } from "./protocols/shadowsocks.ts";
import { TrojanOutbound } from "./protocols/trojan.ts";
import { VlessOutbound } from "./protocols/vless.ts";
import { VmessOutbound } from "./protocols/vmess.ts";

export const DirectOutbound = z.strictObject({ ...typedShape("direct"), ...dialShape }).transform(withTag);

/** Legacy: prefer the `reject` rule action. Takes no dial fields in sing-box either. */
export const BlockOutbound = z.strictObject({ ...typedShape("block") }).transform(withTag);

export const SocksOutbound = z
  .strictObject({
    ...typedShape("socks"),
    ...dialShape,
    server: z.string(),
    server_port: serverPort(),
    version: z.enum(["4", "4a", "5"]).default("5"),
    username: z.string().optional(),
    password: z.string().optional(),
    /** One network only; both when unset. */
    network: z.enum(["tcp", "udp"]).optional(),
    /** Refused by the reference table until implemented. */
    udp_over_tcp: z.union([z.boolean(), z.looseObject({})]).optional(),
    /** TLS to the proxy server. */
    tls: OutboundTls.optional(),
  })
  .transform(withTag);

export const HttpOutbound = z
  .strictObject({
    ...typedShape("http"),
    ...dialShape,
    server: z.string(),
    server_port: serverPort(),
    username: z.string().optional(),
    password: z.string().optional(),
    path: z.string().optional(),
    headers: headers().optional(),
    /** TLS to the proxy server. */
    tls: OutboundTls.optional(),
  })
  .transform(withTag);

export const Outbound = z.discriminatedUnion("type", [
  DirectOutbound,
  BlockOutbound,
  SocksOutbound,
  HttpOutbound,
  ShadowsocksOutbound,
  TrojanOutbound,
  VlessOutbound,
  VmessOutbound,
  SelectorOutbound,
  UrlTestOutbound,
  FallbackOutbound,
  LoadBalanceOutbound,
]);

export type DirectOutboundModel = z.output<typeof DirectOutbound>;
export type BlockOutboundModel = z.output<typeof BlockOutbound>;
export type SocksOutboundModel = z.output<typeof SocksOutbound>;
export type HttpOutboundModel = z.output<typeof HttpOutbound>;
export type OutboundModel = z.output<typeof Outbound>;
