/**
 * A set of IPv4 and IPv6 prefixes answering "is this address in any of them". Prefixes are
 * merged into sorted, disjoint ranges; a lookup is a binary search (O(log n), no allocation).
 * IPv4-mapped IPv6 prefixes (`::ffff:10.0.0.0/104`) also cover the IPv4 form, and lookups unmap
 * mapped addresses, so both spellings match alike.
 */
import { type Cidr, type IpVersion, parseCidr, parseIpInto } from "./ip.ts";

export class CidrSetBuilder {
  /** IPv4 keys: start * 64 + bits, exact in a double (2^38 max). */
  #v4: number[] = [];
  /** IPv6 prefixes as 4 network words + bits each. */
  #v6: number[] = [];

  /** Adds a prefix (or bare address); false when `text` is not one. */
  add(text: string): boolean {
    const cidr = parseCidr(text);
    if (!cidr) return false;
    this.addCidr(cidr);
    return true;
  }

  addCidr(cidr: Cidr): void {
    const w = cidr.address.words;
    if (cidr.address.version === 4) {
      this.#v4.push(w[0] * 64 + cidr.bits);
      return;
    }
    this.#v6.push(w[0], w[1], w[2], w[3], cidr.bits);
    if (cidr.bits >= 96 && w[0] === 0 && w[1] === 0 && w[2] === 0xffff) {
      this.#v4.push(w[3] * 64 + (cidr.bits - 96));
    }
  }

  build(): CidrSet {
    return new CidrSet(buildV4(this.#v4), buildV6(this.#v6));
  }
}

/** Merged IPv4 ranges (inclusive), sorted by start. */
export interface V4Ranges {
  starts: Uint32Array;
  ends: Uint32Array;
}

function buildV4(keys: number[]): V4Ranges {
  const sorted = Float64Array.from(keys).sort();
  const starts: number[] = [];
  const ends: number[] = [];
  for (const key of sorted) {
    const bits = key % 64;
    const start = (key - bits) / 64;
    const end = start + 2 ** (32 - bits) - 1;
    const last = ends.length - 1;
    if (last >= 0 && start <= ends[last] + 1) {
      if (end > ends[last]) ends[last] = end;
    } else {
      starts.push(start);
      ends.push(end);
    }
  }
  return { starts: Uint32Array.from(starts), ends: Uint32Array.from(ends) };
}

/** Merged IPv6 ranges: 4 words per start and per end, in parallel arrays, sorted by start. */
export interface V6Ranges {
  starts: Uint32Array;
  ends: Uint32Array;
  count: number;
}

function compare4(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  for (let k = 0; k < 4; k++) {
    const d = a[ai + k] - b[bi + k];
    if (d !== 0) return d;
  }
  return 0;
}

function buildV6(flat: number[]): V6Ranges {
  const n = flat.length / 5;
  const prefixStarts = new Uint32Array(n * 4);
  const prefixEnds = new Uint32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const bits = flat[i * 5 + 4];
    for (let k = 0; k < 4; k++) {
      const w = flat[i * 5 + k];
      const keep = bits - k * 32;
      const hostMask = keep >= 32 ? 0 : keep <= 0 ? 0xffffffff : (0xffffffff >>> keep);
      prefixStarts[i * 4 + k] = w;
      prefixEnds[i * 4 + k] = (w | hostMask) >>> 0;
    }
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => compare4(prefixStarts, a * 4, prefixStarts, b * 4));
  const starts = new Uint32Array(n * 4);
  const ends = new Uint32Array(n * 4);
  let count = 0;
  for (let j = 0; j < n; j++) {
    const i = order[j] * 4;
    const last = (count - 1) * 4;
    // Prefix ranges either nest or are disjoint, so merging on overlap is enough (adjacent
    // ranges stay separate, which only costs a little space).
    if (count > 0 && compare4(prefixStarts, i, ends, last) <= 0) {
      if (compare4(prefixEnds, i, ends, last) > 0) ends.set(prefixEnds.subarray(i, i + 4), last);
    } else {
      starts.set(prefixStarts.subarray(i, i + 4), count * 4);
      ends.set(prefixEnds.subarray(i, i + 4), count * 4);
      count++;
    }
  }
  return { starts: starts.slice(0, count * 4), ends: ends.slice(0, count * 4), count };
}

export class CidrSet {
  readonly #v4: V4Ranges;
  readonly #v6: V6Ranges;
  /** Parse buffer for `has`; lookups are synchronous, so one per set is safe. */
  readonly #scratch = new Uint32Array(4);

  /** Use CidrSetBuilder or CidrSet.from; the ranges must be sorted and disjoint. */
  constructor(v4: V4Ranges, v6: V6Ranges) {
    this.#v4 = v4;
    this.#v6 = v6;
  }

  /** Builds a set from prefix texts; throws a RangeError naming the first invalid one. */
  static from(cidrs: Iterable<string>): CidrSet {
    const builder = new CidrSetBuilder();
    for (const text of cidrs) {
      if (!builder.add(text)) throw new RangeError(`Invalid CIDR prefix "${text}"`);
    }
    return builder.build();
  }

  /** Number of disjoint ranges after merging (IPv4 + IPv6). */
  get rangeCount(): number {
    return this.#v4.starts.length + this.#v6.count;
  }

  get isEmpty(): boolean {
    return this.rangeCount === 0;
  }

  /** Whether the IP literal `host` falls in the set; false when it is not an IP literal. */
  has(host: string): boolean {
    const w = this.#scratch;
    const version = parseIpInto(host, w);
    return version !== 0 && this.hasWords(version, w);
  }

  /** Lookup on the parseIpInto form. */
  hasWords(version: IpVersion, w: ArrayLike<number>): boolean {
    if (version === 4) {
      const { starts, ends } = this.#v4;
      const x = w[0];
      let lo = 0, hi = starts.length - 1, found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (starts[mid] <= x) {
          found = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return found >= 0 && x <= ends[found];
    }
    const { starts, ends, count } = this.#v6;
    let lo = 0, hi = count - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compare4(starts, mid * 4, w, 0) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && compare4(w, 0, ends, found * 4) <= 0;
  }
}
