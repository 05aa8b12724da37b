/**
 * Builds the DNS subsystem from `dns`: one transport per server (each dialed with its own dial
 * fields or detour), the client with rules and cache. No servers means the system resolver alone
 * answers (a `local` transport). Failures answer SERVFAIL so clients never hang.
 */
import type { Dialer, DnsService, DomainStrategy, Metadata } from "../adapter/mod.ts";
import type { Model } from "../config/mod.ts";
import { ConfigError, errorText } from "../common/errors.ts";
import { DnsClient } from "../dns/client.ts";
import { answerAddresses, buildResponse, questionOf, RCODE } from "../dns/message.ts";
import { FakeIpPool } from "../dns/fakeip.ts";
import { ReverseMap } from "../dns/reverse_map.ts";
import { FakeIpTransport } from "../dns/servers/fakeip.ts";
import { createTransport, type DnsTransport, LocalTransport } from "../dns/servers/mod.ts";
import type { Resolver } from "../net/resolver.ts";

export interface BuiltDns {
  service: DnsService;
  close(): void;
}

export function buildDns(
  model: Model,
  dialerFor: (fields: object, path: string, resolver: Resolver) => Dialer,
  systemResolver: Resolver,
  fail: (path: string, e: unknown) => void,
): BuiltDns | undefined {
  let client: DnsClient | undefined;
  /**
   * How a server resolves its own name: through the server its `domain_resolver` names (asked
   * directly), else the system resolver. A server never resolves its own name through itself.
   */
  const resolverFor = (tag: string): Resolver => ({
    lookup: (name, strategy, server) =>
      server !== undefined && server !== tag && client
        ? client.lookup(name, strategy, undefined, server)
        : systemResolver.lookup(name, strategy),
  });
  const transports: DnsTransport[] = [];
  const byTag = new Map<string, DnsTransport>();
  const pools: FakeIpPool[] = [];
  model.dns.servers.forEach((server, i) => {
    const path = `/dns/servers/${i}`;
    try {
      if (server.type === "fakeip") {
        const pool = new FakeIpPool({ inet4Range: server.inet4_range, inet6Range: server.inet6_range }, path);
        pools.push(pool);
        const t = new FakeIpTransport(server.tag, pool);
        transports.push(t);
        byTag.set(t.tag, t);
        return;
      }
      const t = createTransport(server as never, {
        dialer: dialerFor(server, path, resolverFor(server.tag)),
        transports: (tag) => byTag.get(tag),
      });
      transports.push(t);
      byTag.set(t.tag, t);
    } catch (e) {
      fail(path, e instanceof ConfigError ? e : new ConfigError(`${path}/type`, errorText(e)));
    }
  });
  if (transports.length !== model.dns.servers.length) return undefined;
  if (transports.length === 0) transports.push(new LocalTransport("local"));
  try {
    client = new DnsClient({
      dns: { ...model.dns, final: model.dns.final ?? transports[0].tag },
      transports,
    });
  } catch (e) {
    fail("/dns", e);
    return undefined;
  }
  const reverse = model.dns.reverse_mapping ? new ReverseMap() : undefined;
  const remember = (answer: Uint8Array) => {
    const q = questionOf(answer);
    if (q && reverse) reverse.remember(q.name, answerAddresses(answer));
    return answer;
  };
  return {
    service: {
      exchange: (query: Uint8Array, metadata?: Metadata) =>
        client.exchange(query, metadata).then(remember, () => {
          try {
            return buildResponse(query, RCODE.SERVFAIL);
          } catch {
            return new Uint8Array(0); // not even a question: the caller drops it
          }
        }),
      exchangeCached: (query: Uint8Array, metadata?: Metadata) => {
        const hit = client.exchangeCached(query, metadata);
        return hit && remember(hit);
      },
      lookup: (name: string, strategy?: DomainStrategy, metadata?: Metadata, server?: string) =>
        client.lookup(name, strategy, metadata, server),
      domainOf: (address: string) => {
        for (const pool of pools) {
          const domain = pool.nameOf(address);
          if (domain) return { domain, fake: true };
        }
        const domain = reverse?.nameOf(address);
        return domain ? { domain, fake: false } : undefined;
      },
    },
    close: () => client.close(),
  };
}
