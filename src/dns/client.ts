/**
 * The DNS router: walks `dns.rules` for each query (the first matching final action decides),
 * with `evaluate` responses kept for later `match_response` rules, `race` rules matched while
 * responses are still coming (the first to match decides; other actions wait until no earlier
 * race rule matched) and `speculative` queries sent early. `exchange` answers clients' queries
 * (with `client_strategy`), `lookup` the engine's own. Not wired into the engine yet.
 */
import type { Metadata } from "../adapter/metadata.ts";
import { ConfigError, DnsError } from "../common/errors.ts";
import type { DnsModel } from "../config/model/dns.ts";
import { DnsCache } from "./cache.ts";
import {
  answerAddresses,
  buildQuery,
  buildResponse,
  parseClientSubnet,
  questionOf,
  RCODE,
  TYPE,
  type WireQuestion,
} from "./message.ts";
import { type CompiledDnsRule, compileDnsRules, type DnsMatchMeta, type QueryOptions } from "./rules.ts";
import type { ResponseView } from "./response_view.ts";
import type { DnsTransport } from "./transport.ts";
import { type Clock, SYSTEM_CLOCK, Upstream } from "./upstream.ts";
import { Walk } from "./walk.ts";

export type Strategy = DnsModel["strategy"];

const NO_RESPONSES: ReadonlyMap<string, ResponseView | undefined> = new Map();

export interface DnsClientOptions {
  dns: Pick<
    DnsModel,
    | "rules"
    | "final"
    | "strategy"
    | "timeout"
    | "disable_cache"
    | "disable_expire"
    | "cache_capacity"
    | "optimistic"
    | "client_subnet"
    | "client_strategy"
  >;
  transports: readonly DnsTransport[];
  clock?: Clock;
  randomId?: () => number;
}

function defaultMeta(name: string): Metadata {
  return {
    inbound: "",
    inboundType: "",
    network: "udp",
    source: { host: "0.0.0.0", port: 0 },
    destination: { host: name, port: 53 },
  };
}

/** Whether `strategy` leaves out the family that `type` asks for. */
export function familyExcluded(strategy: Strategy | undefined, type: number): boolean {
  return (strategy === "ipv4_only" && type === TYPE.AAAA) || (strategy === "ipv6_only" && type === TYPE.A);
}

export class DnsClient {
  readonly #rules: CompiledDnsRule[];
  readonly #final: string;
  readonly #dns: DnsClientOptions["dns"];
  readonly #upstream: Upstream;
  readonly #transports: readonly DnsTransport[];
  readonly #fake: Set<string>;

  constructor(options: DnsClientOptions) {
    const { dns, transports } = options;
    this.#dns = dns;
    this.#transports = transports;
    this.#fake = new Set(transports.filter((t) => t.type === "fakeip").map((t) => t.tag));
    const tags = new Set(transports.map((t) => t.tag));
    const final = dns.final ?? transports[0]?.tag;
    if (final === undefined) {
      throw new ConfigError("/dns/servers", "the DNS router needs at least one server");
    }
    if (!tags.has(final)) throw new ConfigError("/dns/final", `unknown DNS server "${final}"`);
    this.#final = final;
    const byTag = new Map(transports.map((t) => [t.tag, t]));
    this.#rules = compileDnsRules(dns.rules, tags, "/dns/rules", (tag) => {
      const t = byTag.get(tag);
      return t?.owns ? (name) => t.owns!(name) : undefined;
    });
    let clientSubnet;
    if (dns.client_subnet !== undefined) {
      clientSubnet = parseClientSubnet(dns.client_subnet);
      if (!clientSubnet) {
        throw new ConfigError("/dns/client_subnet", `invalid client subnet "${dns.client_subnet}"`);
      }
    }
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.#upstream = new Upstream({
      transports: new Map(transports.map((t) => [t.tag, t])),
      cache: dns.disable_cache ? undefined : new DnsCache({
        capacity: dns.cache_capacity,
        disableExpire: dns.disable_expire,
        optimistic: dns.optimistic,
        now: clock.now,
      }),
      timeout: dns.timeout,
      clientSubnet,
      clock,
      randomId: options.randomId ?? (() => crypto.getRandomValues(new Uint16Array(1))[0]),
    });
  }

  /** Answers a client's query (wire form; the response carries its id). Rejects with DnsError when no server answered. */
  exchange(query: Uint8Array, meta?: Metadata): Promise<Uint8Array> {
    const q = questionOf(query);
    if (!q) return Promise.reject(new DnsError("DNS query has no question"));
    if (familyExcluded(this.#dns.client_strategy, q.type)) {
      return Promise.resolve(buildResponse(query, RCODE.NOERROR));
    }
    return this.#route(query, q, meta, this.#dns.strategy);
  }

  /**
   * The answer when the rules decide without waiting (no `evaluate`, `race` or response
   * conditions on the way) and the chosen server's answer is cached; else undefined and the caller
   * uses `exchange`. Synchronous: a cache hit costs no promise.
   */
  exchangeCached(query: Uint8Array, meta?: Metadata): Uint8Array | undefined {
    const q = questionOf(query);
    if (!q || familyExcluded(this.#dns.client_strategy, q.type)) return undefined;
    const base = meta ?? defaultMeta(q.name);
    let m: DnsMatchMeta | undefined;
    let options: QueryOptions = {};
    let server = this.#final;
    for (const rule of this.#rules) {
      if (rule.race || rule.needs.length > 0 || rule.action === "evaluate") return undefined;
      m ??= {
        ...base,
        sniffedDomain: undefined,
        destination: { host: q.name, port: base.destination.port },
        dnsQueryType: q.type,
        dnsResponses: NO_RESPONSES,
      };
      if (!rule.match(m)) continue;
      if (rule.action === "route-options") {
        options = { ...options, ...rule.options };
        continue;
      }
      if (rule.action !== "route" || rule.speculative) return undefined;
      server = rule.server!;
      options = { ...options, ...rule.options };
      break;
    }
    if (familyExcluded(options.strategy ?? this.#dns.strategy, q.type)) return undefined;
    return this.#upstream.cached(server, query, q, options);
  }

  /** The engine's own lookup: addresses of `name`, ordered and filtered by `strategy` (dns.strategy by default). */
  async lookup(
    name: string,
    strategy: Strategy = this.#dns.strategy,
    meta?: Metadata,
    /** A server to ask directly, past the rules (`domain_resolver`, the `resolve` action's `server`). */
    server?: string,
  ): Promise<string[]> {
    const types = strategy === "ipv4_only"
      ? ["A"]
      : strategy === "ipv6_only"
      ? ["AAAA"]
      : strategy === "prefer_ipv6"
      ? ["AAAA", "A"]
      : ["A", "AAAA"];
    const results = await Promise.allSettled(types.map((type) => {
      const query = buildQuery(name, type);
      const q = questionOf(query)!;
      if (server !== undefined) {
        return this.#upstream.exchange(server, query, q, {}, new AbortController().signal);
      }
      return this.#route(query, q, meta, strategy, true);
    }));
    const addresses: string[] = [];
    let error: unknown;
    for (const r of results) {
      if (r.status === "fulfilled") addresses.push(...answerAddresses(r.value));
      else error ??= r.reason;
    }
    if (addresses.length > 0) return addresses;
    if (error) throw error;
    throw new DnsError(`Lookup "${name}": no addresses`);
  }

  #route(
    query: Uint8Array,
    q: WireQuestion,
    meta: Metadata | undefined,
    strategy: Strategy,
    internal = false,
  ): Promise<Uint8Array> {
    const base = meta ?? defaultMeta(q.name);
    // The engine's own lookups never take fake addresses: they must reach the real host.
    const skipServer = internal ? (tag: string) => this.#fake.has(tag) : undefined;
    const walk = new Walk({
      rules: this.#rules,
      skipServer,
      final: internal && this.#fake.has(this.#final) ? this.#realFinal() : this.#final,
      query,
      meta: { ...base, sniffedDomain: undefined, destination: { host: q.name, port: base.destination.port } },
      queryType: q.type,
      send: (server, opts: QueryOptions, signal) => {
        if (familyExcluded(opts.strategy ?? strategy, q.type)) {
          return Promise.resolve(buildResponse(query, RCODE.NOERROR));
        }
        return this.#upstream.exchange(server, query, q, opts, signal);
      },
    });
    return walk.run();
  }

  /** For the engine's own lookups when `final` is a fake-IP server: the first real server. */
  #realFinal(): string {
    const real = this.#transports.find((t) => !this.#fake.has(t.tag));
    if (!real) throw new DnsError("No DNS server but fake-IP ones: the engine cannot resolve real addresses");
    return real.tag;
  }

  close(): void {
    for (const t of this.#transports) t.close();
  }
}
