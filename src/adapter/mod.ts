export type { Conn, HandshakeConn, Packet, PacketConn } from "./conn.ts";
export { isHandshakeConn } from "./conn.ts";
export type { Address, Metadata, Network } from "./metadata.ts";
export { domainOf, isIpLiteral } from "./metadata.ts";
export type { ConnectionHandler, Dialer, Inbound, Outbound, UsersReloadable } from "./bound.ts";
export { isUsersReloadable } from "./bound.ts";
export type {
  InboundContext,
  InboundFactory,
  InboundTraits,
  OutboundContext,
  OutboundFactory,
  ProviderAccess,
  Registry,
} from "./registry.ts";
export type { DnsService, DomainStrategy } from "./dns.ts";
export type {
  ClientLayerOptions,
  ClientLayers,
  LayeredServer,
  LayerOptions,
  ServerLayers,
  StreamHandler,
  StreamInfo,
} from "./layers.ts";
