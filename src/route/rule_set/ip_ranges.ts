/**
 * IP prefixes ⇄ the inclusive address ranges a .srs IP set stores (go4.org/netipx IPSet: sorted,
 * merged ranges, IPv4 ones as 4-byte addresses before IPv6 ones as 16-byte addresses).
 * BigInt keeps the arithmetic simple; sets hold thousands of ranges, not millions.
 */
import { canonicalIp, parseCidr } from "../../common/ip.ts";
import { ProtocolError } from "../../common/errors.ts";

export interface IpRange {
  /** 4 or 16 (bytes). */
  size: 4 | 16;
  from: bigint;
  to: bigint;
}

function toBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

export function fromBytes(from: Uint8Array, to: Uint8Array): IpRange {
  if ((from.length !== 4 && from.length !== 16) || from.length !== to.length) {
    throw new ProtocolError(`IP range with address sizes ${from.length} and ${to.length}`);
  }
  const range = { size: from.length as 4 | 16, from: toBigInt(from), to: toBigInt(to) };
  if (range.from > range.to) throw new ProtocolError("IP range ends before it starts");
  return range;
}

export function toBytes(v: bigint, size: 4 | 16): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(v & 255n);
    v >>= 8n;
  }
  return out;
}

function formatAddress(v: bigint, size: 4 | 16): string {
  const b = toBytes(v, size);
  if (size === 4) return b.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] << 8) | b[i + 1]).toString(16));
  const text = groups.join(":");
  return canonicalIp(text) ?? text;
}

/** The fewest prefixes covering a range exactly, as "address/bits" text. */
export function rangeToPrefixes(r: IpRange): string[] {
  const width = BigInt(r.size * 8);
  const out: string[] = [];
  let from = r.from;
  while (from <= r.to) {
    let bits = 0n;
    // Grow the block while aligned and inside the range.
    while (
      bits < width && (from & ((1n << (bits + 1n)) - 1n)) === 0n && from + (1n << (bits + 1n)) - 1n <= r.to
    ) {
      bits++;
    }
    out.push(`${formatAddress(from, r.size)}/${width - bits}`);
    from += 1n << bits;
  }
  return out;
}

/** Sorted, merged ranges of prefixes (or bare addresses); throws on text that is neither. */
export function prefixesToRanges(texts: readonly string[]): IpRange[] {
  const ranges: IpRange[] = [];
  for (const text of texts) {
    const cidr = parseCidr(text);
    if (!cidr) throw new ProtocolError(`invalid IP prefix "${text}"`);
    const size = cidr.address.version === 4 ? 4 : 16;
    let v = 0n;
    for (const w of cidr.address.words) v = (v << 32n) | BigInt(w);
    const host = BigInt(size * 8 - cidr.bits);
    ranges.push({ size, from: v, to: v | ((1n << host) - 1n) });
  }
  ranges.sort((a, b) => a.size - b.size || (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const merged: IpRange[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && last.size === r.size && r.from <= last.to + 1n) {
      if (r.to > last.to) last.to = r.to;
    } else merged.push({ ...r });
  }
  return merged;
}
