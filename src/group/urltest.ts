/**
 * `urltest`: the member with the lowest tested delay. It switches only when the new best beats
 * the current member by more than `tolerance` ms, or when the current one failed its last test,
 * so near-equal members do not flap. Before the first results it uses the first member.
 */
import type { Metadata } from "../adapter/mod.ts";
import type { UrlTestOutboundModel } from "../config/model/group.ts";
import { type GroupEnv, memberTags } from "./group.ts";
import { TestedGroup } from "./tested.ts";

export class UrlTestGroup extends TestedGroup {
  readonly tolerance: number;
  #selected?: string;

  constructor(o: UrlTestOutboundModel, env: GroupEnv) {
    super("urltest", o.tag, memberTags(o), o, env);
    this.tolerance = o.tolerance;
  }

  now(): string {
    return this.#selected ?? this.members[0];
  }

  protected pick(_metadata: Metadata): string {
    return this.now();
  }

  protected override onTested(): void {
    const { health } = this.env;
    let best: string | undefined;
    let bestDelay = Infinity;
    for (const tag of this.members) {
      const d = health.last(tag)?.delay;
      if (d !== undefined && d < bestDelay) [best, bestDelay] = [tag, d];
    }
    if (best === undefined || best === this.#selected) return;
    const current = this.#selected === undefined ? undefined : health.last(this.#selected)?.delay;
    if (current === undefined || bestDelay + this.tolerance < current) {
      this.env.logger.info(`switched to ${best} (${bestDelay} ms)`);
      this.#selected = best;
    }
  }
}
