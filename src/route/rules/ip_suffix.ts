/**
 * `ip_suffix` / `source_ip_suffix` (extension; mihomo's IP-SUFFIX and SRC-IP-SUFFIX): an address
 * matches `a.b.c.d/n` when its last n bits equal those of a.b.c.d, e.g. `8.8.8.8/24` matches any
 * x.8.8.8. The same family only; destination items look at resolved addresses like `ip_cidr`.
 */
import type { Metadata } from "../../adapter/metadata.ts";
import { ConfigError } from "../../common/errors.ts";
import { type IpVersion, parseIpInto } from "../../common/ip.ts";
import { stringList } from "./fields.ts";
import type { ConditionDef, Predicate } from "./types.ts";

interface Suffix {
  version: IpVersion;
  /** Words of the pattern, most significant first (one for IPv4, four for IPv6). */
  words: Uint32Array;
  bits: number;
}

/** True when the low `bits` bits of `w` (a `version` address) equal the pattern's. */
function matches(s: Suffix, version: IpVersion, w: Uint32Array): boolean {
  if (version !== s.version) return false;
  const count = version === 4 ? 1 : 4;
  let left = s.bits;
  for (let i = count - 1; i >= 0 && left > 0; i--, left -= 32) {
    const mask = left >= 32 ? 0xffffffff : (1 << left) - 1;
    if (((w[i] ^ s.words[i]) & mask) >>> 0 !== 0) return false;
  }
  return true;
}

export function parseSuffix(text: string): Suffix | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  if (!m) return undefined;
  const words = new Uint32Array(4);
  const version = parseIpInto(m[1], words);
  const bits = Number(m[2]);
  if (version === 0 || bits > (version === 4 ? 32 : 128)) return undefined;
  return { version, words: version === 4 ? words.slice(0, 1) : words, bits };
}

function suffix(field: string, source: boolean): ConditionDef {
  return {
    fields: [field],
    group: source ? "source_address" : "destination_ip",
    compile(rule, ctx): Predicate {
      const list = stringList(rule, field, ctx).map((text, i) => {
        const s = parseSuffix(text);
        if (!s) {
          throw new ConfigError(
            `${ctx.path}/${field}/${i}`,
            `invalid IP suffix "${text}" (use address/bits)`,
          );
        }
        return s;
      });
      const scratch = new Uint32Array(4);
      const test = (host: string) => {
        const v = parseIpInto(host, scratch);
        return v !== 0 && list.some((s) => matches(s, v, scratch));
      };
      if (source) return (m: Metadata) => test(m.source.host);
      // As ip_cidr: an IP destination is judged alone, a name by the addresses `resolve` found.
      return (m: Metadata) =>
        parseIpInto(m.destination.host, scratch) !== 0
          ? test(m.destination.host)
          : m.resolvedAddresses?.some(test) ?? false;
    },
  };
}

export const ipSuffixCondition: ConditionDef = suffix("ip_suffix", false);
export const sourceIpSuffixCondition: ConditionDef = suffix("source_ip_suffix", true);
