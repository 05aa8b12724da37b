/**
 * The fake-IP pool: hands out addresses from `inet4_range` / `inet6_range` for names and maps
 * them back. Addresses go out in order (the network address is skipped); once a range is full the
 * least recently used name gives up its address. Deterministic; state lives in the instance and
 * is mirrored to an injected store (persistence comes with the cache file).
 */
import { ConfigError } from "../common/errors.ts";
import { type Cidr, formatIp, type IpVersion, parseCidr, parseIpInto } from "../common/ip.ts";

export interface FakeIpEntry {
  address: string;
  name: string;
}

export interface FakeIpStore {
  /** Entries kept earlier, least recently used first. */
  load(): Iterable<FakeIpEntry>;
  put(entry: FakeIpEntry): void;
  delete(address: string): void;
}

/** A store that keeps nothing. */
export const NO_STORE: FakeIpStore = { load: () => [], put() {}, delete() {} };

function toBig(words: ArrayLike<number>, count: number): bigint {
  let v = 0n;
  for (let k = 0; k < count; k++) v = (v << 32n) | BigInt(words[k] >>> 0);
  return v;
}

function fromBig(v: bigint, version: IpVersion): string {
  const count = version === 4 ? 1 : 4;
  const words = new Uint32Array(count);
  for (let k = count - 1; k >= 0; k--, v >>= 32n) words[k] = Number(v & 0xffffffffn);
  return formatIp({ version, words });
}

/** One range: name <-> address, LRU order in `#byName`. */
class FakeIpRange {
  readonly version: IpVersion;
  readonly #base: bigint;
  readonly #size: bigint;
  #next = 1n;
  readonly #byName = new Map<string, string>();
  readonly #byAddress = new Map<string, string>();

  constructor(readonly cidr: Cidr, private readonly store: FakeIpStore) {
    this.version = cidr.address.version;
    const width = this.version === 4 ? 32 : 128;
    this.#base = toBig(cidr.address.words, this.version === 4 ? 1 : 4);
    // Usable offsets 1 .. size-1; an IPv4 range also keeps its last address back.
    this.#size = (1n << BigInt(width - cidr.bits)) - (this.version === 4 ? 1n : 0n);
  }

  offsetOf(address: string): bigint | undefined {
    const w = new Uint32Array(4);
    if (parseIpInto(address, w) !== this.version) return undefined;
    const off = toBig(w, this.version === 4 ? 1 : 4) - this.#base;
    return off >= 1n && off < this.#size ? off : undefined;
  }

  restore(e: FakeIpEntry): void {
    const off = this.offsetOf(e.address);
    if (off === undefined) return;
    this.#remember(e.name, fromBig(this.#base + off, this.version));
    if (off >= this.#next) this.#next = off + 1n;
  }

  #remember(name: string, address: string): void {
    const old = this.#byAddress.get(address);
    if (old !== undefined) this.#byName.delete(old);
    this.#byName.delete(name);
    this.#byName.set(name, address);
    this.#byAddress.set(address, name);
  }

  addressFor(name: string): string {
    const known = this.#byName.get(name);
    if (known !== undefined) {
      this.#byName.delete(name);
      this.#byName.set(name, known);
      return known;
    }
    let address: string;
    if (this.#next < this.#size) {
      address = fromBig(this.#base + this.#next++, this.version);
    } else {
      const [oldName, oldAddress] = this.#byName.entries().next().value!;
      this.#byName.delete(oldName);
      this.store.delete(oldAddress);
      address = oldAddress;
    }
    this.#remember(name, address);
    this.store.put({ address, name });
    return address;
  }

  nameOf(address: string): string | undefined {
    const off = this.offsetOf(address);
    return off === undefined ? undefined : this.#byAddress.get(fromBig(this.#base + off, this.version));
  }

  clear(): void {
    for (const address of this.#byAddress.keys()) this.store.delete(address);
    this.#byName.clear();
    this.#byAddress.clear();
    this.#next = 1n;
  }
}

export interface FakeIpOptions {
  inet4Range?: string;
  inet6Range?: string;
  store?: FakeIpStore;
}

export class FakeIpPool {
  readonly #v4?: FakeIpRange;
  readonly #v6?: FakeIpRange;

  constructor(options: FakeIpOptions, path = "") {
    const store = options.store ?? NO_STORE;
    const range = (text: string | undefined, version: IpVersion, field: string) => {
      if (text === undefined) return undefined;
      const cidr = parseCidr(text);
      const max = version === 4 ? 30 : 126;
      if (!cidr || cidr.address.version !== version || cidr.bits > max) {
        throw new ConfigError(
          `${path}/${field}`,
          `invalid IPv${version} range "${text}": expected a prefix of /${max} or shorter`,
        );
      }
      return new FakeIpRange(cidr, store);
    };
    this.#v4 = range(options.inet4Range, 4, "inet4_range");
    this.#v6 = range(options.inet6Range, 6, "inet6_range");
    for (const e of store.load()) (this.#v4?.restore(e), this.#v6?.restore(e));
  }

  /** Whether the pool has a range for `version`. */
  has(version: IpVersion): boolean {
    return (version === 4 ? this.#v4 : this.#v6) !== undefined;
  }

  /** The fake address of `name` (lowercase, no trailing dot) in `version`, handing one out if needed. */
  addressFor(name: string, version: IpVersion): string | undefined {
    return (version === 4 ? this.#v4 : this.#v6)?.addressFor(name.toLowerCase().replace(/\.$/, ""));
  }

  /** The name a fake address stands for, or undefined. */
  nameOf(address: string): string | undefined {
    return this.#v4?.nameOf(address) ?? this.#v6?.nameOf(address);
  }

  /** Whether `address` lies in one of the ranges. */
  contains(address: string): boolean {
    return this.#v4?.offsetOf(address) !== undefined || this.#v6?.offsetOf(address) !== undefined;
  }

  clear(): void {
    this.#v4?.clear();
    this.#v6?.clear();
  }
}
