/** The `trojan` inbound and outbound (sing-box `inbound/trojan.md`, `outbound/trojan.md`). */
import { z } from "zod";
import { serverPort, typedShape, withTag } from "../common.ts";
import { dialShape } from "../dial.ts";
import { listenShape } from "../listen.ts";
import { InboundMultiplex, OutboundMultiplex } from "../multiplex.ts";
import { InboundTls, OutboundTls } from "../tls.ts";
import { Transport } from "../transport.ts";

export const TrojanOutbound = z
  .strictObject({
    ...typedShape("trojan"),
    ...dialShape,
    server: z.string(),
    server_port: serverPort(),
    password: z.string(),
    network: z.enum(["tcp", "udp"]).optional(),
    tls: OutboundTls.optional(),
    transport: Transport.optional(),
    multiplex: OutboundMultiplex.optional(),
  })
  .transform(withTag);

export const TrojanUser = z.strictObject({ name: z.string().optional(), password: z.string() });

const fallbackServer = z.strictObject({ server: z.string(), server_port: serverPort() });

export const TrojanInbound = z
  .strictObject({
    ...typedShape("trojan"),
    ...listenShape,
    users: z.array(TrojanUser).optional(),
    tls: InboundTls.optional(),
    fallback: fallbackServer.optional(),
    fallback_for_alpn: z.record(z.string(), fallbackServer).optional(),
    transport: Transport.optional(),
    multiplex: InboundMultiplex.optional(),
  })
  .transform(withTag);

export type TrojanOutboundModel = z.output<typeof TrojanOutbound>;
export type TrojanInboundModel = z.output<typeof TrojanInbound>;
