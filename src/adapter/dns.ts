/** What the router and dialers ask of the DNS subsystem (the engine supplies it). */
import type { Metadata } from "./metadata.ts";

export type DomainStrategy = "prefer_ipv4" | "prefer_ipv6" | "ipv4_only" | "ipv6_only";

export interface DnsService {
  /** Answers a client's query (wire form) under the DNS rules; never rejects: failures answer SERVFAIL. */
  exchange(query: Uint8Array, metadata?: Metadata): Promise<Uint8Array>;
  /**
   * The answer when it is at hand without waiting (a cached one the rules lead to), else
   * undefined and the caller uses `exchange`. Lets UDP listeners answer hits with no promise.
   */
  exchangeCached?(query: Uint8Array, metadata?: Metadata): Uint8Array | undefined;
  /** The engine's own lookup of a name (dialing, the `resolve` action). */
  lookup(name: string, strategy?: DomainStrategy, metadata?: Metadata, server?: string): Promise<string[]>;
  /**
   * The name an address stands for: a fake IP handed out by a `fakeip` server (`fake`: the
   * connection must be dialed by name), or an address seen in an answer (`reverse_mapping`).
   */
  domainOf(address: string): { domain: string; fake: boolean } | undefined;
}
