/**
 * How protocols plug in: each registers constructors by `type`; engine/registry.ts is the one
 * list of register() calls. The context gives a protocol what it may use from the engine.
 */
import type { Logger } from "../common/log.ts";
import type { ConnectionHandler, Dialer, Inbound, Outbound } from "./bound.ts";
import type { ClientLayerOptions, ClientLayers, LayerOptions, ServerLayers } from "./layers.ts";

export interface InboundContext {
  logger: Logger;
  handler: ConnectionHandler;
  /** TLS and transport for this inbound's listener, from its `tls`/`transport` blocks. */
  serverLayers(options: LayerOptions): ServerLayers;
}

export interface OutboundContext {
  logger: Logger;
  /** The dialer for this outbound's own dial fields (its `detour`, bind addresses, timeouts). */
  dialer: Dialer;
  /** Looks up another outbound by tag (groups); built ones only. */
  outbound(tag: string): Outbound | undefined;
  /** Resolves a name the way the engine does (protocols that must send an address, e.g. SOCKS4). */
  lookup(name: string): Promise<string[]>;
  /** TLS and transport towards this outbound's server, from its `tls`/`transport` blocks. */
  clientLayers(options: ClientLayerOptions): ClientLayers;
  /** The engine's outbound providers (groups take their outbounds as members). */
  providers?: ProviderAccess;
}

/** What groups may ask of the engine's outbound providers. */
export interface ProviderAccess {
  /** The member tags a provider offers now (they change at run time); undefined when unknown. */
  tags(provider: string): readonly string[] | undefined;
  /** Hands the groups' health-check scheduler to providers that have a `health_check`. */
  useHealth(health: unknown): void;
}

// deno-lint-ignore no-explicit-any
export type InboundFactory = (options: any, ctx: InboundContext) => Inbound;
// deno-lint-ignore no-explicit-any
export type OutboundFactory = (options: any, ctx: OutboundContext) => Outbound;

/** What the engine and the management API may know about an inbound type before building one. */
export interface InboundTraits {
  /**
   * Its `users` can be replaced at run time without rebinding the socket: instances implement
   * `UsersReloadable` (see bound.ts).
   */
  reloadable: boolean;
}

export interface Registry {
  inbound(type: string, factory: InboundFactory, traits?: InboundTraits): void;
  outbound(type: string, factory: OutboundFactory): void;
}
