/**
 * The DNS answer cache: LRU over (server tag, question name lower-cased, type, class, client
 * subnet). An answer lives for its least TTL (negative answers: the SOA minimum); `disableExpire`
 * keeps it however old, and optimistic mode still serves it for `timeout` ms after expiry while
 * telling the caller to refresh it. Time comes from the injected `now()`; no module-level state.
 */
import { cacheTtl, RCODE, rcodeOf, rewriteTtlAt, ttlOffsets } from "./message.ts";

export const MIN_CAPACITY = 1024;
/** TTL carried by an expired answer served optimistically. */
export const STALE_TTL = 1;

export interface CacheKey {
  server: string;
  name: string;
  type: number;
  class: number;
  /** EDNS Client Subnet as `address/bits`, "" for none. */
  subnet: string;
}

export interface CacheOptions {
  /** Answers kept; raised to MIN_CAPACITY. */
  capacity?: number;
  disableExpire?: boolean;
  /** Serve expired answers for `timeout` ms after expiry (optimistic mode). */
  optimistic?: { enabled: boolean; timeout: number };
  /** Milliseconds clock. */
  now: () => number;
}

export interface CacheHit {
  /** The stored response (id as stored) with TTLs counted down to now. */
  response: Uint8Array;
  /** The answer has expired and was served optimistically: ask the server again. */
  refresh: boolean;
}

interface Entry {
  response: Uint8Array;
  /** TTL fields of `response`, found once when stored. */
  ttlOffsets: number[];
  storedAt: number;
  expiresAt: number;
}

function keyText(k: CacheKey): string {
  return `${k.server}\u0000${k.name.toLowerCase()}\u0000${k.type}\u0000${k.class}\u0000${k.subnet}`;
}

export class DnsCache {
  readonly #entries = new Map<string, Entry>();
  readonly #capacity: number;
  readonly #disableExpire: boolean;
  readonly #optimisticMs: number;
  readonly #now: () => number;

  constructor(options: CacheOptions) {
    this.#capacity = Math.max(options.capacity ?? MIN_CAPACITY, MIN_CAPACITY);
    this.#disableExpire = options.disableExpire ?? false;
    this.#optimisticMs = options.optimistic?.enabled ? options.optimistic.timeout : -1;
    this.#now = options.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Keeps `response` when it is a cacheable answer (NOERROR or NXDOMAIN with a TTL above zero). */
  put(key: CacheKey, response: Uint8Array): boolean {
    const rcode = rcodeOf(response);
    if (rcode !== RCODE.NOERROR && rcode !== RCODE.NXDOMAIN) return false;
    if (response[2] & 0x02) return false; // truncated
    const ttl = cacheTtl(response);
    if (ttl === undefined || ttl <= 0) return false;
    const text = keyText(key);
    const now = this.#now();
    this.#entries.delete(text);
    this.#entries.set(text, {
      response,
      ttlOffsets: ttlOffsets(response),
      storedAt: now,
      expiresAt: now + ttl * 1000,
    });
    while (this.#entries.size > this.#capacity) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    return true;
  }

  /** The kept answer for `key`, or undefined; `optimistic: false` turns optimistic serving off for this call. */
  get(key: CacheKey, options: { optimistic?: boolean } = {}): CacheHit | undefined {
    const text = keyText(key);
    const entry = this.#entries.get(text);
    if (!entry) return undefined;
    const now = this.#now();
    const expired = now >= entry.expiresAt;
    let refresh = false;
    if (expired && !this.#disableExpire) {
      const inWindow = this.#optimisticMs >= 0 && now < entry.expiresAt + this.#optimisticMs;
      if (!inWindow) this.#entries.delete(text);
      if (!inWindow || options.optimistic === false) return undefined;
      refresh = true;
    }
    this.#entries.delete(text);
    this.#entries.set(text, entry);
    const elapsed = Math.floor((now - entry.storedAt) / 1000);
    const response = refresh
      ? rewriteTtlAt(entry.response, entry.ttlOffsets, STALE_TTL)
      : rewriteTtlAt(entry.response, entry.ttlOffsets, (old) => Math.max(expired ? 1 : 0, old - elapsed));
    return { response, refresh };
  }

  delete(key: CacheKey): void {
    this.#entries.delete(keyText(key));
  }

  clear(): void {
    this.#entries.clear();
  }
}
