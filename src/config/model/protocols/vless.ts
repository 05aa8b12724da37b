/** The `vless` inbound and outbound (sing-box `inbound/vless.md`, `outbound/vless.md`). */
import { z } from "zod";
import { serverPort, typedShape, withTag } from "../common.ts";
import { dialShape } from "../dial.ts";
import { listenShape } from "../listen.ts";
import { InboundMultiplex, OutboundMultiplex } from "../multiplex.ts";
import { InboundTls, OutboundTls } from "../tls.ts";
import { Transport } from "../transport.ts";

/** `xudp` by default, as sing-box; "" (none) and `packetaddr` are the others. */
export const packetEncoding = () => z.enum(["", "packetaddr", "xudp"]).optional();

export const VlessOutbound = z
  .strictObject({
    ...typedShape("vless"),
    ...dialShape,
    server: z.string(),
    server_port: serverPort(),
    uuid: z.string(),
    /** `xtls-rprx-vision` arrives with the advanced-TLS issue; refused until then. */
    flow: z.string().optional(),
    network: z.enum(["tcp", "udp"]).optional(),
    packet_encoding: packetEncoding(),
    tls: OutboundTls.optional(),
    transport: Transport.optional(),
    multiplex: OutboundMultiplex.optional(),
  })
  .transform(withTag);

export const VlessUser = z.strictObject({
  name: z.string().optional(),
  uuid: z.string(),
  flow: z.string().optional(),
});

export const VlessInbound = z
  .strictObject({
    ...typedShape("vless"),
    ...listenShape,
    users: z.array(VlessUser).optional(),
    tls: InboundTls.optional(),
    transport: Transport.optional(),
    multiplex: InboundMultiplex.optional(),
  })
  .transform(withTag);

export type VlessOutboundModel = z.output<typeof VlessOutbound>;
export type VlessInboundModel = z.output<typeof VlessInbound>;
