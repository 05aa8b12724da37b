/**
 * Name resolution used by the net layer until a DNS subsystem is wired in: the system resolver
 * through getaddrinfo (node:dns lookup), which honours /etc/hosts and nsswitch like other programs.
 */
import { lookup } from "node:dns/promises";
import { DnsError } from "../common/errors.ts";

export type DomainStrategy = "prefer_ipv4" | "prefer_ipv6" | "ipv4_only" | "ipv6_only";

export interface Resolver {
  /**
   * Resolves `name` to addresses ordered by `strategy`; throws DnsError when there is none.
   * `server` names a DNS server to ask past the rules (ignored by the system resolver).
   */
  lookup(name: string, strategy?: DomainStrategy, server?: string): Promise<string[]>;
}

export class SystemResolver implements Resolver {
  async lookup(name: string, strategy: DomainStrategy = "prefer_ipv4"): Promise<string[]> {
    let found: { address: string; family: number }[];
    try {
      found = await lookup(name, {
        all: true,
        family: strategy === "ipv4_only" ? 4 : strategy === "ipv6_only" ? 6 : 0,
      });
    } catch (e) {
      throw new DnsError(`Cannot resolve "${name}": ${(e as Error).message}`, { cause: e });
    }
    return orderAddresses(found.map((a) => a.address), strategy);
  }
}

/** Orders (and filters) addresses by a domain strategy. */
export function orderAddresses(addresses: string[], strategy: DomainStrategy): string[] {
  const v4 = addresses.filter((a) => !a.includes(":"));
  const v6 = addresses.filter((a) => a.includes(":"));
  switch (strategy) {
    case "ipv4_only":
      return v4;
    case "ipv6_only":
      return v6;
    case "prefer_ipv6":
      return [...v6, ...v4];
    default:
      return [...v4, ...v6];
  }
}
