/** The `vmess` inbound and outbound (sing-box `inbound/vmess.md`, `outbound/vmess.md`). */
import { z } from "zod";
import { serverPort, typedShape, withTag } from "../common.ts";
import { dialShape } from "../dial.ts";
import { listenShape } from "../listen.ts";
import { InboundMultiplex, OutboundMultiplex } from "../multiplex.ts";
import { InboundTls, OutboundTls } from "../tls.ts";
import { Transport } from "../transport.ts";
import { packetEncoding } from "./vless.ts";

export const VMESS_SECURITY = [
  "auto",
  "none",
  "zero",
  "aes-128-gcm",
  "chacha20-poly1305",
  "aes-128-ctr",
] as const;

export const VmessOutbound = z
  .strictObject({
    ...typedShape("vmess"),
    ...dialShape,
    server: z.string(),
    server_port: serverPort(),
    uuid: z.string(),
    security: z.enum(VMESS_SECURITY).default("auto"),
    alter_id: z.int().min(0).default(0),
    global_padding: z.boolean().optional(),
    authenticated_length: z.boolean().optional(),
    network: z.enum(["tcp", "udp"]).optional(),
    packet_encoding: packetEncoding(),
    tls: OutboundTls.optional(),
    transport: Transport.optional(),
    multiplex: OutboundMultiplex.optional(),
  })
  .transform(withTag);

export const VmessUser = z.strictObject({
  name: z.string().optional(),
  uuid: z.string(),
  alterId: z.int().min(0).optional(),
});

export const VmessInbound = z
  .strictObject({
    ...typedShape("vmess"),
    ...listenShape,
    users: z.array(VmessUser).optional(),
    tls: InboundTls.optional(),
    transport: Transport.optional(),
    multiplex: InboundMultiplex.optional(),
  })
  .transform(withTag);

export type VmessOutboundModel = z.output<typeof VmessOutbound>;
export type VmessInboundModel = z.output<typeof VmessInbound>;
