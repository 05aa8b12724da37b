/** Inbounds: the types the model describes, as one union on `type`. */
import { z } from "zod";
import { listable, port, typedShape, withTag } from "./common.ts";
import { listenShape } from "./listen.ts";
import { InboundTls } from "./tls.ts";
import { ShadowsocksInbound } from "./protocols/shadowsocks.ts";
import { TrojanInbound } from "./protocols/trojan.ts";
import { VlessInbound } from "./protocols/vless.ts";
import { VmessInbound } from "./protocols/vmess.ts";

/** A user of the socks, http and mixed inbounds. */
export const User = z.strictObject({
  username: z.string(),
  password: z.string(),
});
export type UserModel = z.output<typeof User>;

const users = () => z.array(User).optional();

export const MixedInbound = z
  .strictObject({
    ...typedShape("mixed"),
    ...listenShape,
    users: users(),
    /** Dropped with a warning by the reference table. */
    set_system_proxy: z.boolean().optional(),
  })
  .transform(withTag);

export const SocksInbound = z
  .strictObject({ ...typedShape("socks"), ...listenShape, users: users(), tls: InboundTls.optional() })
  .transform(withTag);

export const HttpInbound = z
  .strictObject({
    ...typedShape("http"),
    ...listenShape,
    users: users(),
    /** Dropped with a warning by the reference table. */
    set_system_proxy: z.boolean().optional(),
    /** TLS in front of the proxy: an HTTPS proxy. */
    tls: InboundTls.optional(),
  })
  .transform(withTag);

export const DirectInbound = z
  .strictObject({
    ...typedShape("direct"),
    ...listenShape,
    network: listable(z.enum(["tcp", "udp"]), '"tcp" or "udp"').optional(),
    override_address: z.string().optional(),
    override_port: port().optional(),
  })
  .transform(withTag);

export const Inbound = z.discriminatedUnion("type", [
  MixedInbound,
  SocksInbound,
  HttpInbound,
  DirectInbound,
  ShadowsocksInbound,
  TrojanInbound,
  VlessInbound,
  VmessInbound,
]);

export type MixedInboundModel = z.output<typeof MixedInbound>;
export type SocksInboundModel = z.output<typeof SocksInbound>;
export type HttpInboundModel = z.output<typeof HttpInbound>;
export type DirectInboundModel = z.output<typeof DirectInbound>;
export type InboundModel = z.output<typeof Inbound>;
