/**
 * Bounds-checked big-endian reads over a byte view. A read past the end returns `undefined` and leaves
 * the position where it was; nothing here throws.
 */
export class ByteReader {
  readonly #data: Uint8Array;
  readonly #end: number;
  #pos: number;

  constructor(data: Uint8Array, start = 0, end = data.length) {
    this.#data = data;
    this.#end = Math.max(0, Math.min(end, data.length));
    this.#pos = Math.max(0, Math.min(start, this.#end));
  }

  get offset(): number {
    return this.#pos;
  }

  get remaining(): number {
    return this.#end - this.#pos;
  }

  u8(): number | undefined {
    return this.#pos < this.#end ? this.#data[this.#pos++] : undefined;
  }

  u16(): number | undefined {
    if (this.remaining < 2) return undefined;
    const d = this.#data, p = this.#pos;
    this.#pos += 2;
    return (d[p] << 8) | d[p + 1];
  }

  u24(): number | undefined {
    if (this.remaining < 3) return undefined;
    const d = this.#data, p = this.#pos;
    this.#pos += 3;
    return (d[p] << 16) | (d[p + 1] << 8) | d[p + 2];
  }

  u32(): number | undefined {
    if (this.remaining < 4) return undefined;
    const d = this.#data, p = this.#pos;
    this.#pos += 4;
    return ((d[p] << 24) >>> 0) + ((d[p + 1] << 16) | (d[p + 2] << 8) | d[p + 3]);
  }

  /** The next `n` bytes as a view (no copy). */
  bytes(n: number): Uint8Array | undefined {
    if (!(n >= 0) || n > this.remaining) return undefined;
    const view = this.#data.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return view;
  }

  skip(n: number): boolean {
    if (!(n >= 0) || n > this.remaining) return false;
    this.#pos += n;
    return true;
  }

  /** A QUIC variable-length integer (RFC 9000 section 16). Values above 2^53 lose precision. */
  varint(): number | undefined {
    if (this.remaining < 1) return undefined;
    const d = this.#data, p = this.#pos;
    const len = 1 << (d[p] >> 6);
    if (this.remaining < len) return undefined;
    let v = d[p] & 0x3f;
    for (let i = 1; i < len; i++) v = v * 256 + d[p + i];
    this.#pos += len;
    return v;
  }
}

/** Whether `data` begins with `prefix` (an ASCII string or bytes). */
export function startsWith(data: Uint8Array, prefix: string | Uint8Array, at = 0): boolean {
  if (at < 0 || data.length - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const b = typeof prefix === "string" ? prefix.charCodeAt(i) : prefix[i];
    if (data[at + i] !== b) return false;
  }
  return true;
}

/**
 * Whether `data` and `prefix` agree over their common length: `data` could still grow into something
 * that starts with `prefix`.
 */
export function agreesWith(data: Uint8Array, prefix: string): boolean {
  const n = Math.min(data.length, prefix.length);
  for (let i = 0; i < n; i++) if (data[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** Bytes as a string, one char per byte (Latin-1); callers validate the characters they accept. */
export function latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 4096) {
    s += String.fromCharCode(...bytes.subarray(i, Math.min(i + 4096, bytes.length)));
  }
  return s;
}

/** Index of `byte` in `data[from, limit)`, or -1. */
export function indexOfByte(data: Uint8Array, byte: number, from = 0, limit = data.length): number {
  const end = Math.min(limit, data.length);
  for (let i = Math.max(0, from); i < end; i++) if (data[i] === byte) return i;
  return -1;
}

/** The chunks joined into one new array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
