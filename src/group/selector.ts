/**
 * `selector`: the member chosen by hand (APIs), starting at `default` or the first member.
 * `interrupt_exist_connections` is accepted; connections opened before a switch keep their member
 * until the tracker can close them by outbound (not wired yet).
 */
import type { Metadata } from "../adapter/mod.ts";
import { DialError } from "../common/errors.ts";
import type { SelectorOutboundModel } from "../config/model/group.ts";
import { type GroupEnv, GroupOutbound, memberTags } from "./group.ts";

export class SelectorGroup extends GroupOutbound {
  #selected: string;
  readonly interruptExistConnections: boolean;

  constructor(o: SelectorOutboundModel, env: GroupEnv) {
    super("selector", o.tag, memberTags(o), env);
    const members = this.members;
    if (o.default !== undefined && !members.includes(o.default)) {
      throw new Error(`"default" names "${o.default}", which is not one of the group's outbounds`);
    }
    this.#selected = o.default ?? members[0];
    this.interruptExistConnections = o.interrupt_exist_connections ?? false;
  }

  now(): string {
    // A provider update may drop the selection: the first member stands in until it is back.
    const members = this.members;
    return members.includes(this.#selected) ? this.#selected : members[0] ?? this.#selected;
  }

  /** Switches the member new connections use; throws for a tag that is not a member. */
  select(tag: string): void {
    if (!this.members.includes(tag)) {
      throw new DialError(`Group "${this.tag}" has no member "${tag}"`);
    }
    if (tag !== this.#selected) this.env.logger.info(`selected ${tag}`);
    this.#selected = tag;
  }

  protected pick(_metadata: Metadata): string {
    return this.now();
  }
}
