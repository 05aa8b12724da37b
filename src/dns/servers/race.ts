/**
 * `race` (extension): asks every member at once and takes the first good answer (not SERVFAIL
 * or REFUSED); the others are abandoned. When no member answers well, the last answer any gave
 * is returned, else the error of each member.
 */
import { DnsError, errorText } from "../../common/errors.ts";
import type { DnsTransport } from "../transport.ts";
import { RCODE, rcodeOf } from "./packet.ts";
import { abortError } from "./util.ts";

export type TransportLookup = (tag: string) => DnsTransport | undefined;

export function isGoodAnswer(b: Uint8Array): boolean {
  const r = rcodeOf(b);
  return r !== RCODE.SERVFAIL && r !== RCODE.REFUSED;
}

export function members(tag: string, tags: readonly string[], lookup: TransportLookup): DnsTransport[] {
  return tags.map((t) => {
    const m = lookup(t);
    if (!m) throw new DnsError(`DNS server "${tag}": member server "${t}" does not exist`);
    return m;
  });
}

export class RaceTransport implements DnsTransport {
  readonly type = "race";

  constructor(
    readonly tag: string,
    private readonly tags: readonly string[],
    private readonly lookup: TransportLookup,
  ) {}

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    const list = members(this.tag, this.tags, this.lookup);
    const what = `DNS race "${this.tag}"`;
    if (signal.aborted) throw abortError(signal, what);
    const ctl = new AbortController();
    const linked = AbortSignal.any([signal, ctl.signal]);
    return await new Promise<Uint8Array>((resolve, reject) => {
      let left = list.length;
      let fallback: Uint8Array | undefined;
      const errors: string[] = [];
      const settle = () => {
        if (--left > 0) return;
        ctl.abort();
        if (fallback) resolve(fallback);
        else if (signal.aborted) reject(abortError(signal, what));
        else reject(new DnsError(`${what}: every server failed: ${errors.join("; ")}`));
      };
      for (const m of list) {
        m.exchange(query, linked).then((r) => {
          if (isGoodAnswer(r)) {
            ctl.abort();
            resolve(r);
          } else fallback = r;
          settle();
        }, (e) => {
          errors.push(`"${m.tag}": ${errorText(e)}`);
          settle();
        });
      }
    });
  }

  close(): void {}
}
