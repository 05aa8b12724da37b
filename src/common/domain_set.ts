/**
 * A set of domain conditions: exact names, suffixes, keywords and regular expressions, matched
 * case-insensitively with one trailing dot ignored.
 *
 * Suffix semantics are sing-box's (sing `common/domain.NewMatcher`): "example.com" matches
 * example.com and every name under it (not "badexample.com"); ".example.com" matches only names
 * under it. Exact names and suffixes are hash lookups, one per label of the name looked up, with
 * a hash rolled from the end of the name so no substring is made; keywords use Aho-Corasick when
 * there are more than a few.
 */

/** Lowercases and drops one trailing dot. */
export function normalizeDomain(name: string): string {
  const lower = name.toLowerCase();
  return lower.charCodeAt(lower.length - 1) === 46 ? lower.slice(0, -1) : lower;
}

export interface DomainSetInit {
  /** Exact names (`domain`). */
  domain?: Iterable<string>;
  /** `domain_suffix` items. */
  suffix?: Iterable<string>;
  /** Substrings (`domain_keyword`). */
  keyword?: Iterable<string>;
  /** Compiled `domain_regex` items, tested against the normalised name. */
  regex?: Iterable<RegExp>;
}

export class DomainSet {
  /** Names matched exactly: `domain` items and dotless `domain_suffix` items. */
  readonly #exact: SuffixTable;
  /** Names whose strict subdomains match (stored without the leading dot). */
  readonly #parents: SuffixTable;
  readonly #keywords: KeywordMatcher | undefined;
  readonly #regexes: RegExp[];

  constructor(init: DomainSetInit) {
    const exact = new Set<string>();
    const parents = new Set<string>();
    for (const name of init.domain ?? []) {
      if (name === "") throw new RangeError("Empty domain is not allowed");
      exact.add(normalizeDomain(name));
    }
    for (const item of init.suffix ?? []) {
      if (item === "") throw new RangeError("Empty domain suffix is not allowed");
      const suffix = normalizeDomain(item);
      if (suffix.charCodeAt(0) === 46) {
        parents.add(suffix.slice(1));
      } else {
        exact.add(suffix);
        parents.add(suffix);
      }
    }
    this.#exact = new SuffixTable(exact);
    this.#parents = new SuffixTable(parents);
    const keywords = [...(init.keyword ?? [])].map((k) => k.toLowerCase());
    this.#keywords = keywords.length > 0 ? new KeywordMatcher(keywords) : undefined;
    this.#regexes = [...(init.regex ?? [])];
  }

  get isEmpty(): boolean {
    return this.#exact.size === 0 && this.#parents.size === 0 && !this.#keywords &&
      this.#regexes.length === 0;
  }

  /** Whether `name` matches any item; `name` is normalised first. */
  has(name: string): boolean {
    return this.hasNormalized(normalizeDomain(name));
  }

  /** Like `has` for a name already lowercased without a trailing dot. */
  hasNormalized(name: string): boolean {
    const parents = this.#parents;
    const exact = this.#exact;
    if (parents.size > 0 || exact.size > 0) {
      // Roll the hash from the end: at a dot, `h` is the hash of the name after it.
      const walkParents = parents.size > 0;
      let h = 0;
      for (let i = name.length - 1; i >= 0; i--) {
        const c = name.charCodeAt(i);
        if (c === 46 && walkParents && parents.hasTail(h, name, i + 1)) return true;
        h = (Math.imul(h, 31) + c) | 0;
      }
      if (exact.hasTail(h, name, 0)) return true;
    }
    if (this.#keywords?.test(name)) return true;
    for (const re of this.#regexes) {
      if (re.test(name)) return true;
    }
    return false;
  }
}

/** The hash SuffixTable keys on: rolled from the last character to the first. */
function tailHash(s: string): number {
  let h = 0;
  for (let i = s.length - 1; i >= 0; i--) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * A string set probed with a precomputed tailHash and a tail of another string, so lookups of
 * every suffix of a name make no substrings (open addressing over typed arrays).
 */
class SuffixTable {
  readonly size: number;
  readonly #strings: string[];
  readonly #hashes: Int32Array;
  /** Index + 1 into #strings, 0 for an empty slot. */
  readonly #slots: Int32Array;
  readonly #mask: number;

  constructor(strings: Set<string>) {
    this.#strings = [...strings];
    this.size = this.#strings.length;
    let capacity = 4;
    while (capacity < this.size * 2) capacity *= 2;
    this.#mask = capacity - 1;
    this.#hashes = new Int32Array(capacity);
    this.#slots = new Int32Array(capacity);
    this.#strings.forEach((s, index) => {
      const h = tailHash(s);
      let slot = mix(h) & this.#mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask;
      this.#hashes[slot] = h;
      this.#slots[slot] = index + 1;
    });
  }

  /** Whether `name.slice(start)`, whose tailHash is `h`, is in the set. */
  hasTail(h: number, name: string, start: number): boolean {
    const slots = this.#slots;
    const length = name.length - start;
    for (let slot = mix(h) & this.#mask;; slot = (slot + 1) & this.#mask) {
      const index = slots[slot];
      if (index === 0) return false;
      if (this.#hashes[slot] === h) {
        const s = this.#strings[index - 1];
        if (s.length === length && name.endsWith(s)) return true;
      }
    }
  }
}

function mix(h: number): number {
  return Math.imul(h ^ (h >>> 16), 0x45d9f3b) ^ (h >>> 13);
}

/** Up to this many keywords are tested one by one with `includes`. */
const PLAIN_KEYWORD_LIMIT = 8;

/** Substring search for many keywords at once (Aho-Corasick, flattened to typed arrays). */
export class KeywordMatcher {
  readonly #plain: string[] | undefined;
  /** Children of node n are childChar/childNode[childStart[n] .. childStart[n+1]), sorted by char. */
  readonly #childStart: Int32Array;
  readonly #childChar: Uint16Array;
  readonly #childNode: Int32Array;
  readonly #fail: Int32Array;
  /** 1 when a keyword ends at this node or at a node on its fail chain. */
  readonly #out: Uint8Array;

  constructor(keywords: readonly string[]) {
    if (keywords.length <= PLAIN_KEYWORD_LIMIT) {
      this.#plain = [...keywords];
      this.#childStart = new Int32Array(0);
      this.#childChar = new Uint16Array(0);
      this.#childNode = new Int32Array(0);
      this.#fail = new Int32Array(0);
      this.#out = new Uint8Array(0);
      return;
    }
    // Build a trie with maps, then flatten it breadth-first so node ids follow BFS order.
    const trie: Map<number, number>[] = [new Map()];
    const terminal: boolean[] = [false];
    for (const keyword of keywords) {
      let node = 0;
      for (let i = 0; i < keyword.length; i++) {
        const c = keyword.charCodeAt(i);
        let next = trie[node].get(c);
        if (next === undefined) {
          next = trie.length;
          trie.push(new Map());
          terminal.push(false);
          trie[node].set(c, next);
        }
        node = next;
      }
      terminal[node] = true;
    }
    const n = trie.length;
    const order = [0];
    const newId = new Int32Array(n);
    for (let i = 0; i < order.length; i++) {
      for (const [, child] of [...trie[order[i]]].sort((a, b) => a[0] - b[0])) {
        newId[child] = order.length;
        order.push(child);
      }
    }
    const childStart = new Int32Array(n + 1);
    const childChar = new Uint16Array(n - 1);
    const childNode = new Int32Array(n - 1);
    const out = new Uint8Array(n);
    let edge = 0;
    for (let id = 0; id < n; id++) {
      childStart[id] = edge;
      const old = order[id];
      out[id] = terminal[old] ? 1 : 0;
      for (const [c, child] of [...trie[old]].sort((a, b) => a[0] - b[0])) {
        childChar[edge] = c;
        childNode[edge] = newId[child];
        edge++;
      }
    }
    childStart[n] = edge;
    this.#childStart = childStart;
    this.#childChar = childChar;
    this.#childNode = childNode;
    const fail = new Int32Array(n);
    this.#fail = fail;
    // Node ids are in BFS order, so a node's fail target is final before its children need it.
    for (let id = 0; id < n; id++) {
      for (let e = childStart[id]; e < childStart[id + 1]; e++) {
        const child = childNode[e];
        if (id === 0) {
          fail[child] = 0;
        } else {
          let f = fail[id];
          let target = this.#child(f, childChar[e]);
          while (target < 0 && f !== 0) {
            f = fail[f];
            target = this.#child(f, childChar[e]);
          }
          fail[child] = target >= 0 && target !== child ? target : 0;
        }
        if (out[fail[child]]) out[child] = 1;
      }
    }
    this.#out = out;
    this.#plain = undefined;
  }

  #child(node: number, c: number): number {
    const chars = this.#childChar;
    let lo = this.#childStart[node];
    let hi = this.#childStart[node + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const m = chars[mid];
      if (m === c) return this.#childNode[mid];
      if (m < c) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Whether any keyword occurs in `text`. */
  test(text: string): boolean {
    const plain = this.#plain;
    if (plain) {
      for (const keyword of plain) {
        if (text.includes(keyword)) return true;
      }
      return false;
    }
    const out = this.#out;
    if (out[0]) return true;
    const fail = this.#fail;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let next = this.#child(node, c);
      while (next < 0 && node !== 0) {
        node = fail[node];
        next = this.#child(node, c);
      }
      node = next < 0 ? 0 : next;
      if (out[node]) return true;
    }
    return false;
  }
}
