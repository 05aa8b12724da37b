/**
 * What every group shares: members looked up by tag when used (they may be built after the group,
 * or be groups themselves), dial and listenPacket handed to the member the policy picks.
 */
import type { Address, Conn, Metadata, Network, Outbound, PacketConn } from "../adapter/mod.ts";
import type { Logger } from "../common/log.ts";
import { DialError } from "../common/errors.ts";
import type { HealthChecks } from "./health.ts";

export interface GroupEnv {
  logger: Logger;
  /** Another outbound by tag (the engine's table). */
  outbound(tag: string): Outbound | undefined;
  health: HealthChecks;
  /** Members from the group's `providers` now (after its `filter`/`exclude`); they change live. */
  providerMembers?: () => string[];
}

interface MemberOptions {
  tag: string;
  outbounds?: string[];
  providers?: string[];
}

/**
 * The fixed member tags of a group's options (provider members come through the env); throws
 * (the engine adds the JSON path) when unusable.
 */
export function memberTags(o: MemberOptions): string[] {
  const tags = o.outbounds ?? [];
  if (tags.length === 0 && !o.providers?.length) {
    throw new Error(`"outbounds" is empty: a group needs at least one member`);
  }
  return [...new Set(tags)];
}

export abstract class GroupOutbound implements Outbound {
  readonly networks: readonly Network[] = ["tcp", "udp"];
  readonly dependencies: readonly string[];
  readonly #fixed: readonly string[];

  constructor(
    readonly type: string,
    readonly tag: string,
    members: readonly string[],
    protected readonly env: GroupEnv,
  ) {
    this.#fixed = members;
    this.dependencies = members;
  }

  /** `outbounds`, then the providers' current members. */
  get members(): readonly string[] {
    const extra = this.env.providerMembers?.();
    if (!extra?.length) return this.#fixed;
    return [...this.#fixed, ...extra.filter((t) => !this.#fixed.includes(t))];
  }

  /** The member in use now (for the APIs): the selection, or the last pick. */
  abstract now(): string;

  /** The member tag for this connection. */
  protected abstract pick(metadata: Metadata): string;

  member(tag: string): Outbound {
    const o = this.env.outbound(tag);
    if (!o) throw new DialError(`Group "${this.tag}": member "${tag}" is not a built outbound`);
    return o;
  }

  dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn> {
    return this.open(metadata, signal, (o) => o.dial(destination, metadata, signal));
  }

  listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn> {
    return this.open(metadata, signal, (o) => o.listenPacket(destination, metadata, signal));
  }

  protected async open<T>(
    metadata: Metadata,
    _signal: AbortSignal | undefined,
    f: (o: Outbound) => Promise<T>,
  ): Promise<T> {
    const tag = this.pick(metadata);
    this.env.logger.debug(
      `${metadata.network} ${metadata.destination.host}:${metadata.destination.port} via member ${tag}`,
    );
    return await f(this.member(tag));
  }
}
