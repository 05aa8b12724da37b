/**
 * Builds the DNS subsystem from `dns`: one transport per server (each dialed with its own dial
 * fields or detour), the client with rules and cache. No servers means the system resolver alone
 * answers (a `local` transport). Failures answer SERVFAIL so clients never hang.
 */
import type { Dialer, DnsService, DomainStrategy, Metadata } from "../adapter/mod.ts";
import type { Model } from "../config/mod.ts";
import { ConfigError, errorText } from "../common/errors.ts";
import { DnsClient } from "../dns/client.ts";
import { buildResponse, RCODE } from "../dns/message.ts";
import { createTransport, type DnsTransport, LocalTransport } from "../dns/servers/mod.ts";

export interface BuiltDns {
  service: DnsService;
  close(): void;
}

export function buildDns(
  model: Model,
  dialerFor: (fields: object, path: string) => Dialer,
  fail: (path: string, e: unknown) => void,
): BuiltDns | undefined {
  const transports: DnsTransport[] = [];
  const byTag = new Map<string, DnsTransport>();
  model.dns.servers.forEach((server, i) => {
    const path = `/dns/servers/${i}`;
    try {
      const t = createTransport(server as never, {
        dialer: dialerFor(server, path),
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
  let client: DnsClient;
  try {
    client = new DnsClient({
      dns: { ...model.dns, final: model.dns.final ?? transports[0].tag },
      transports,
    });
  } catch (e) {
    fail("/dns", e);
    return undefined;
  }
  return {
    service: {
      exchange: (query: Uint8Array, metadata?: Metadata) =>
        client.exchange(query, metadata).catch(() => {
          try {
            return buildResponse(query, RCODE.SERVFAIL);
          } catch {
            return new Uint8Array(0); // not even a question: the caller drops it
          }
        }),
      lookup: (name: string, strategy?: DomainStrategy, metadata?: Metadata) =>
        client.lookup(name, strategy, metadata),
    },
    close: () => client.close(),
  };
}
