/**
 * One outbound provider's current set: outbounds built through the engine's factories from a
 * body (or inline list), kept after the provider's `filter`/`exclude`/`exclude_type`. A new set is
 * built completely before it replaces the old one, so a bad body never leaves a half set.
 */
import type { Outbound } from "../../adapter/mod.ts";
import { errorText } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";
import { Outbound as OutboundSchema } from "../../config/model/outbound.ts";
import type { OutboundProviderModel } from "../../config/model/providers.ts";
import { importShareLinks, type Json } from "../../config/links/mod.ts";

/** Builds one outbound (already validated) under a tag; throws when it cannot. */
export type BuildOutbound = (options: Json, where: string) => Outbound;

export interface ProviderHost {
  logger: Logger;
  build: BuildOutbound;
  /** Whether `tag` is taken outside this provider (top-level outbounds, other providers). */
  taken(tag: string, provider: string): boolean;
}

/** Compiles a list of regular expressions; throws naming the bad one. */
export function regexes(list: readonly string[] | undefined, field: string): RegExp[] {
  return (list ?? []).map((s) => {
    try {
      return new RegExp(s);
    } catch (e) {
      throw new Error(`"${field}" has a bad regular expression "${s}": ${errorText(e)}`);
    }
  });
}

/** Kept when some `filter` matches (or there is none) and no `exclude` matches. */
export function keeps(name: string, filter: readonly RegExp[], exclude: readonly RegExp[]): boolean {
  return (filter.length === 0 || filter.some((r) => r.test(name))) && !exclude.some((r) => r.test(name));
}

export class Provider {
  readonly tag: string;
  /** Visible tag → outbound, in body order. */
  #members = new Map<string, Outbound>();
  #filter: RegExp[];
  #exclude: RegExp[];
  #excludeType: Set<string>;
  /** Bumped on every replace (tests, APIs). */
  version = 0;
  updatedAt?: number;

  constructor(readonly model: OutboundProviderModel, private readonly host: ProviderHost) {
    this.tag = model.tag;
    this.#filter = regexes(model.filter, "filter");
    this.#exclude = regexes(model.exclude, "exclude");
    this.#excludeType = new Set(model.exclude_type ?? []);
  }

  get tags(): string[] {
    return [...this.#members.keys()];
  }

  get outbounds(): Outbound[] {
    return [...this.#members.values()];
  }

  outbound(tag: string): Outbound | undefined {
    return this.#members.get(tag);
  }

  /**
   * Reads a body into a new set. Throws (keeping the current set) when nothing usable is in it;
   * entries that fail alone are logged and skipped.
   */
  parseBody(body: string, where: string): Json[] {
    const r = importShareLinks(body);
    for (const p of r.problems.slice(0, 20)) {
      this.host.logger.warn(`provider "${this.tag}": ${where} line ${p.line}: ${p.message}`);
    }
    if (r.outbounds.length === 0) {
      const why = r.problems[0]?.message ?? "it lists no outbounds";
      throw new Error(`${where} has no usable outbound (format ${r.format}): ${why}`);
    }
    return r.outbounds;
  }

  /** Builds `list` and swaps it in; returns how many outbounds were kept. Throws when none builds. */
  async replace(list: readonly Json[], where: string, start: boolean): Promise<number> {
    const next = this.prepare(list, where);
    if (start) {
      for (const o of next.values()) await o.start?.();
    }
    return this.install(next);
  }

  /** Builds a set without installing it; throws when the list has outbounds and none builds. */
  prepare(list: readonly Json[], where: string): Map<string, Outbound> {
    const next = new Map<string, Outbound>();
    const errors: string[] = [];
    list.forEach((raw, i) => {
      const name = String(raw.tag ?? `${raw.type} ${i + 1}`);
      if (this.#excludeType.has(String(raw.type)) || !keeps(name, this.#filter, this.#exclude)) return;
      let tag = name;
      if (this.host.taken(tag, this.tag) || next.has(tag)) tag = `${this.tag}/${name}`;
      for (let n = 2; next.has(tag); n++) tag = `${this.tag}/${name} ${n}`;
      const parsed = OutboundSchema.safeParse({ ...raw, tag });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return void errors.push(
          `${where} outbound ${i} "${name}": /${issue.path.join("/")}: ${issue.message}`,
        );
      }
      try {
        next.set(tag, this.host.build(parsed.data as Json, `${where} outbound ${i}`));
      } catch (e) {
        errors.push(`${where} outbound ${i} "${name}": ${errorText(e)}`);
      }
    });
    for (const e of errors.slice(0, 20)) this.host.logger.warn(`provider "${this.tag}": ${e}`);
    if (next.size === 0 && list.length > 0 && errors.length > 0) {
      throw new Error(`no outbound of ${where} could be built: ${errors[0]}`);
    }
    return next;
  }

  /** Swaps `next` in; the old outbounds are closed. */
  install(next: Map<string, Outbound>): number {
    const old = this.#members;
    this.#members = next;
    this.version++;
    this.updatedAt = Date.now();
    // Live connections keep their outbound objects; closing releases only idle resources.
    for (const o of old.values()) o.close?.().catch(() => {});
    return next.size;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.outbounds.map((o) => o.close?.()));
  }
}
