/**
 * One query to one DNS server as the router makes it: EDNS Client Subnet set or removed, the
 * server's part of the answer cache (optimistic refresh in the background), a per-query timeout on
 * the injected clock, the caller's id restored and `rewrite_ttl` applied.
 */
import { DnsError, errorText } from "../common/errors.ts";
import { type Cidr, formatCidr } from "../common/ip.ts";
import type { CacheKey, DnsCache } from "./cache.ts";
import {
  clientSubnetOfWire,
  messageId,
  rewriteTtl,
  setId,
  type WireQuestion,
  withClientSubnet,
} from "./message.ts";
import type { QueryOptions } from "./rules.ts";
import type { DnsTransport } from "./transport.ts";

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as number),
};

export interface UpstreamOptions {
  transports: ReadonlyMap<string, DnsTransport>;
  cache?: DnsCache;
  /** Default per-query timeout, ms. */
  timeout: number;
  clientSubnet?: Cidr;
  clock: Clock;
  randomId: () => number;
}

export class Upstream {
  readonly #o: UpstreamOptions;
  readonly #refreshing = new Set<string>();

  constructor(options: UpstreamOptions) {
    this.#o = options;
  }

  async exchange(
    server: string,
    query: Uint8Array,
    q: WireQuestion,
    opts: QueryOptions,
    signal: AbortSignal,
  ): Promise<Uint8Array> {
    const hit = this.cached(server, query, q, opts);
    if (hit) return hit;
    const msg = this.#message(query, opts);
    const response = await this.#send(server, msg, opts.timeout ?? this.#o.timeout, signal);
    const cache = opts.disableCache ? undefined : this.#o.cache;
    if (cache) cache.put(this.#key(server, msg, q, opts), response);
    return this.#finish(response, query, opts);
  }

  /** The cached answer (id and `rewrite_ttl` applied), or undefined; synchronous (no promise per hit). */
  cached(server: string, query: Uint8Array, q: WireQuestion, opts: QueryOptions): Uint8Array | undefined {
    const cache = opts.disableCache ? undefined : this.#o.cache;
    if (!cache) return undefined;
    const msg = this.#message(query, opts);
    const key = this.#key(server, msg, q, opts);
    const hit = cache.get(key, { optimistic: !opts.disableOptimisticCache });
    if (!hit) return undefined;
    if (hit.refresh) this.#refresh(server, msg, key, opts);
    return this.#finish(hit.response, query, opts);
  }

  #subnet(opts: QueryOptions): Cidr | null | undefined {
    return opts.clientSubnet === undefined ? this.#o.clientSubnet : opts.clientSubnet;
  }

  #message(query: Uint8Array, opts: QueryOptions): Uint8Array {
    const subnet = this.#subnet(opts);
    return subnet === undefined ? query : withClientSubnet(query, subnet ?? undefined);
  }

  #key(server: string, msg: Uint8Array, q: WireQuestion, opts: QueryOptions): CacheKey {
    const subnet = this.#subnet(opts);
    const subnetText = subnet === undefined ? clientSubnetOfWire(msg) : subnet ? formatCidr(subnet) : "";
    return { server, name: q.name, type: q.type, class: q.class, subnet: subnetText };
  }

  #finish(response: Uint8Array, query: Uint8Array, opts: QueryOptions): Uint8Array {
    const withId = setId(response, messageId(query));
    return opts.rewriteTtl === undefined ? withId : rewriteTtl(withId, opts.rewriteTtl);
  }

  #refresh(server: string, msg: Uint8Array, key: CacheKey, opts: QueryOptions): void {
    const text = JSON.stringify(key);
    if (this.#refreshing.has(text)) return;
    this.#refreshing.add(text);
    this.#send(server, msg, opts.timeout ?? this.#o.timeout, new AbortController().signal)
      .then((r) => void this.#o.cache?.put(key, r), () => {})
      .finally(() => this.#refreshing.delete(text));
  }

  /** Sends `msg` with a fresh id; rejects with DnsError on timeout, abort or failure. */
  #send(server: string, msg: Uint8Array, timeout: number, signal: AbortSignal): Promise<Uint8Array> {
    const transport = this.#o.transports.get(server);
    if (!transport) return Promise.reject(new DnsError(`Unknown DNS server "${server}"`));
    const clock = this.#o.clock;
    const controller = new AbortController();
    return new Promise<Uint8Array>((resolve, reject) => {
      const fail = (e: unknown) => {
        clock.clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        controller.abort(e);
        reject(
          e instanceof DnsError ? e : new DnsError(`DNS server "${server}": ${errorText(e)}`, { cause: e }),
        );
      };
      const timer = clock.setTimeout(
        () => fail(new DnsError(`DNS server "${server}": timed out after ${timeout} ms`)),
        timeout,
      );
      const onAbort = () => fail(new DnsError(`DNS server "${server}": query aborted`));
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const wire = setId(msg, this.#o.randomId());
      transport.exchange(wire, controller.signal).then((r) => {
        clock.clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve(r);
      }, fail);
    });
  }
}
