/** Dial fields shared by outbounds, DNS servers and other dialers (sing-box `shared/dial.md`). */
import { z } from "zod";
import { domainStrategy, listable, networkKind, networkStrategy, routingMark } from "./common.ts";
import { duration } from "./duration.ts";

/** `domain_resolver` object form: the DNS `route` action without `action`. */
export const DomainResolverObject = z.strictObject({
  server: z.string(),
  strategy: domainStrategy().optional(),
  disable_cache: z.boolean().optional(),
  disable_optimistic_cache: z.boolean().optional(),
  /** TTL in seconds. */
  rewrite_ttl: z.int().min(0).optional(),
  client_subnet: z.string().optional(),
});

/** A string is the object with only `server`; the model always holds the object. */
export const DomainResolver = z
  .union([z.string(), DomainResolverObject], { error: "expected a DNS server tag or a resolver object" })
  .transform((v) => (typeof v === "string" ? { server: v } : v));

export type DomainResolverModel = z.output<typeof DomainResolver>;

export const dialShape = {
  detour: z.string().optional(),
  bind_interface: z.string().optional(),
  inet4_bind_address: z.string().optional(),
  inet6_bind_address: z.string().optional(),
  /** Dropped with a warning by the reference table. */
  bind_address_no_port: z.boolean().optional(),
  routing_mark: routingMark().optional(),
  reuse_addr: z.boolean().optional(),
  /** Refused by the reference table (Linux network namespaces). */
  netns: z.string().optional(),
  connect_timeout: duration().optional(),
  tcp_fast_open: z.boolean().optional(),
  /** Dropped with a warning by the reference table. */
  tcp_multi_path: z.boolean().optional(),
  disable_tcp_keep_alive: z.boolean().optional(),
  tcp_keep_alive: duration().optional(),
  tcp_keep_alive_interval: duration().optional(),
  tcp_keep_alive_count: z.int().min(1).optional(),
  /** Dropped with a warning by the reference table. */
  udp_fragment: z.boolean().optional(),
  domain_resolver: DomainResolver.optional(),
  network_strategy: networkStrategy().optional(),
  network_type: listable(networkKind(), "a network type").optional(),
  fallback_network_type: listable(networkKind(), "a network type").optional(),
  fallback_delay: duration().optional(),
};

const DialObject = z.object(dialShape);
export type DialFields = z.output<typeof DialObject>;
