/**
 * `load-balance` (mihomo's meaning) over the members whose last test succeeded (all of them when
 * none did):
 * - `round-robin`: each connection the next member;
 * - `consistent-hashing`: by the destination's registrable domain (or address), rendezvous
 *   hashing so a member going down moves only its own destinations;
 * - `sticky-sessions`: by source address and destination domain, remembered for ten minutes after
 *   last use (mihomo's LRU age), re-picked when the member goes down.
 */
import { getDomain } from "tldts";
import { domainOf, type Metadata } from "../adapter/mod.ts";
import type { LoadBalanceOutboundModel } from "../config/model/group.ts";
import { type GroupEnv, memberTags } from "./group.ts";
import { TestedGroup } from "./tested.ts";

const STICKY_TTL = 10 * 60_000;
/** Sessions remembered at most; the oldest go first. */
const STICKY_MAX = 4096;

export class LoadBalanceGroup extends TestedGroup {
  readonly strategy: LoadBalanceOutboundModel["strategy"];
  #next = 0;
  #last?: string;
  #sticky = new Map<string, { tag: string; expires: number }>();

  constructor(o: LoadBalanceOutboundModel, env: GroupEnv) {
    super("load-balance", o.tag, memberTags(o), o, env);
    this.strategy = o.strategy;
  }

  now(): string {
    return this.#last ?? this.members[0];
  }

  protected pick(metadata: Metadata): string {
    const alive = this.alive();
    const pool = alive.length ? alive : this.members;
    let tag: string;
    if (this.strategy === "round-robin") tag = pool[this.#next++ % pool.length];
    else if (this.strategy === "consistent-hashing") tag = rendezvous(destinationKey(metadata), pool);
    else tag = this.#stickyPick(metadata, pool);
    return this.#last = tag;
  }

  #stickyPick(metadata: Metadata, pool: readonly string[]): string {
    const key = `${metadata.source.host}|${destinationKey(metadata)}`;
    const now = this.env.health.clock.now();
    const hit = this.#sticky.get(key);
    this.#sticky.delete(key);
    const tag = hit && hit.expires > now && pool.includes(hit.tag) ? hit.tag : rendezvous(key, pool);
    this.#sticky.set(key, { tag, expires: now + STICKY_TTL });
    if (this.#sticky.size > STICKY_MAX) this.#sticky.delete(this.#sticky.keys().next().value!);
    return tag;
  }

  /** Sessions remembered now (tests). */
  get stickySessions(): number {
    return this.#sticky.size;
  }
}

/** The registrable domain (example.co.uk for a.b.example.co.uk), else the host as given. */
export function destinationKey(metadata: Metadata): string {
  const host = domainOf(metadata) ?? metadata.destination.host;
  return getDomain(host) ?? host;
}

/** Highest-random-weight choice: stable per key, and removing a member moves only its keys. */
export function rendezvous(key: string, members: readonly string[]): string {
  let best = members[0];
  let bestScore = -1;
  for (const m of members) {
    const s = fnv1a(`${key}\u0000${m}`);
    if (s > bestScore) [best, bestScore] = [m, s];
  }
  return best;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // A final avalanche: FNV alone clusters keys that differ in the last characters.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
