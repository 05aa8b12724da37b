/**
 * `sequential` (extension): asks members one after another until one gives a good answer (not
 * SERVFAIL or REFUSED); otherwise the last answer any gave, else the error of each member.
 */
import { DnsError, errorText } from "../../common/errors.ts";
import type { DnsTransport } from "../transport.ts";
import { isGoodAnswer, members, type TransportLookup } from "./race.ts";
import { abortError } from "./util.ts";

export class SequentialTransport implements DnsTransport {
  readonly type = "sequential";

  constructor(
    readonly tag: string,
    private readonly tags: readonly string[],
    private readonly lookup: TransportLookup,
  ) {}

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    const what = `DNS sequential "${this.tag}"`;
    let fallback: Uint8Array | undefined;
    const errors: string[] = [];
    for (const m of members(this.tag, this.tags, this.lookup)) {
      if (signal.aborted) break;
      try {
        const r = await m.exchange(query, signal);
        if (isGoodAnswer(r)) return r;
        fallback = r;
      } catch (e) {
        errors.push(`"${m.tag}": ${errorText(e)}`);
      }
    }
    if (fallback) return fallback;
    if (signal.aborted) throw abortError(signal, what);
    throw new DnsError(`${what}: every server failed: ${errors.join("; ")}`);
  }

  close(): void {}
}
