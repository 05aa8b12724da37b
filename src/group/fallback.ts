/**
 * `fallback` (mihomo's meaning): the first member, in order, whose last test succeeded. A dial
 * that fails marks that member down and tries the next, and tests it again at once: a failure that
 * was the destination's (a refused port behind a healthy proxy) does not keep it down.
 */
import type { Metadata, Outbound } from "../adapter/mod.ts";
import type { FallbackOutboundModel } from "../config/model/group.ts";
import { type GroupEnv, memberTags } from "./group.ts";
import { TestedGroup } from "./tested.ts";

export class FallbackGroup extends TestedGroup {
  constructor(o: FallbackOutboundModel, env: GroupEnv) {
    super("fallback", o.tag, memberTags(o), o, env);
  }

  now(): string {
    return this.alive()[0] ?? this.members[0];
  }

  protected pick(_metadata: Metadata): string {
    return this.now();
  }

  protected override async open<T>(
    metadata: Metadata,
    signal: AbortSignal | undefined,
    f: (o: Outbound) => Promise<T>,
  ): Promise<T> {
    this.touch();
    const alive = this.alive();
    // All down: the first member still gets its chance (its network may be back).
    const candidates = alive.length ? alive : [this.members[0]];
    let last: unknown;
    for (const tag of candidates) {
      try {
        const conn = await f(this.member(tag));
        this.env.logger.debug(`${metadata.network} ${metadata.destination.host} via member ${tag}`);
        return conn;
      } catch (e) {
        if (signal?.aborted) throw e;
        last = e;
        this.env.health.markDown(tag, e);
        this.#retest(tag);
        this.env.logger.warn(`member ${tag} failed, trying the next: ${e instanceof Error ? e.message : e}`);
      }
    }
    throw last;
  }

  /**
   * Tests a member that just failed a dial at once: the failure may be the destination's (a
   * refused port behind a healthy proxy), and the member should not stay down until the next round.
   */
  #retest(tag: string) {
    try {
      this.env.health.check(this.member(tag), this.url, this.timeout).then(() => this.onTested());
    } catch { /* not an outbound: stays down */ }
  }
}
