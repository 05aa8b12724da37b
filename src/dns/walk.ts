/**
 * One query's walk over the compiled DNS rules (see client.ts for the semantics in short).
 *
 * - `evaluate` sends its query and goes on; its response is kept under its tag (and as the latest)
 *   for later rules whose conditions read it; a rule that reads a response waits for it.
 * - A `race` rule is not waited for: it is matched once the responses it reads are in, while the
 *   walk goes on; the first race rule to match decides.
 * - Every other action (a final one, or a non-speculative `evaluate`) first waits until the race
 *   rules before it are settled, and gives way if one of them matched. `speculative` route and
 *   evaluate rules send their query at once, and its response counts only if none matched.
 * - With no rule deciding, `dns.final` answers (after pending race rules settle).
 */
import type { Metadata } from "../adapter/metadata.ts";
import { buildResponse, RCODE } from "./message.ts";
import { predefinedResponse } from "./predefined.ts";
import { ResponseView } from "./response_view.ts";
import { type CompiledDnsRule, type DnsMatchMeta, LATEST, type QueryOptions } from "./rules.ts";

type Views = Map<string, ResponseView | undefined>;
type Pending = Promise<ResponseView | undefined>;

export interface WalkOptions {
  rules: readonly CompiledDnsRule[];
  final: string;
  query: Uint8Array;
  meta: Metadata;
  queryType: number;
  send(server: string, options: QueryOptions, signal: AbortSignal): Promise<Uint8Array>;
  /** Servers this walk may not use (fake-IP servers for the engine's own lookups): their rules are skipped. */
  skipServer?(server: string): boolean;
}

const DECIDED = Symbol("decided");

export class Walk {
  readonly #o: WalkOptions;
  #options: QueryOptions = {};
  readonly #evaluations = new Map<string, Pending>();
  #latest?: Pending;
  readonly #pendingRace: Promise<void>[] = [];
  #decided = false;
  #result?: Promise<Uint8Array>;
  #onDecided?: () => void;
  #decidedSignal?: Promise<typeof DECIDED>;
  readonly #abort = new AbortController();
  /** An evaluate or speculative query was sent, which the decision may leave unneeded. */
  #sideQueries = false;

  constructor(options: WalkOptions) {
    this.#o = options;
  }

  /** Walks the rules and resolves to the deciding action's response. */
  async run(): Promise<Uint8Array> {
    try {
      await this.#walk();
      return await this.#result!;
    } finally {
      // Evaluate and speculative queries nobody needs any more (an abort costs a DOMException, so
      // only when there may be one).
      if (this.#sideQueries) this.#abort.abort();
    }
  }

  async #walk(): Promise<void> {
    for (const rule of this.#o.rules) {
      if (this.#decided) return;
      if (rule.server !== undefined && this.#o.skipServer?.(rule.server)) continue;
      const reads = this.#reads(rule);
      if (rule.race) {
        this.#pendingRace.push(
          settle(reads).then((views) => {
            if (!this.#decided && rule.match(this.#metaWith(views))) this.#decide(rule, views);
          }),
        );
        continue;
      }
      const views = await this.#unlessDecided(settle(reads));
      if (views === DECIDED || !rule.match(this.#metaWith(views))) continue;
      if (rule.action === "route-options") {
        this.#options = { ...this.#options, ...rule.options };
        continue;
      }
      const early = rule.speculative ? this.#query(rule) : undefined;
      if (early || rule.action === "evaluate") this.#sideQueries = true;
      early?.catch(() => {});
      if (!(await this.#noEarlierRaceMatched())) return;
      if (rule.action !== "evaluate") return this.#decide(rule, views, early);
      const response: Pending = (early ?? this.#query(rule)).then(
        (r) => new ResponseView(r),
        () => undefined,
      );
      this.#evaluations.set(rule.tag!, response);
      this.#latest = response;
    }
    if (!(await this.#noEarlierRaceMatched())) return;
    const final: CompiledDnsRule = {
      index: -1,
      match: () => true,
      needs: [],
      action: "route",
      race: false,
      speculative: false,
      server: this.#o.final,
      options: {},
    };
    this.#decide(final, new Map());
  }

  /** The responses a rule reads (a `respond` rule without `match_response` reads the latest). */
  #reads(rule: CompiledDnsRule): Map<string, Pending | undefined> {
    const names = rule.action === "respond" && rule.needs.length !== 1
      ? [...new Set([...rule.needs, LATEST])]
      : rule.needs;
    return new Map(names.map((n) => [n, n === LATEST ? this.#latest : this.#evaluations.get(n)]));
  }

  #metaWith(views: Views): DnsMatchMeta {
    return { ...this.#o.meta, dnsQueryType: this.#o.queryType, dnsResponses: views };
  }

  #unlessDecided<T>(p: Promise<T>): Promise<T | typeof DECIDED> {
    if (this.#decided) return Promise.resolve(DECIDED);
    this.#decidedSignal ??= new Promise((r) => this.#onDecided = () => r(DECIDED));
    return Promise.race([p, this.#decidedSignal]);
  }

  /** Waits for the race rules registered so far; false when one of them decided. */
  async #noEarlierRaceMatched(): Promise<boolean> {
    if (this.#pendingRace.length > 0) await this.#unlessDecided(Promise.all(this.#pendingRace));
    return !this.#decided;
  }

  #query(rule: CompiledDnsRule): Promise<Uint8Array> {
    return this.#o.send(rule.server!, { ...this.#options, ...rule.options }, this.#abort.signal);
  }

  #decide(rule: CompiledDnsRule, views: Views, early?: Promise<Uint8Array>): void {
    this.#decided = true;
    this.#onDecided?.();
    const { query } = this.#o;
    this.#result = (async () => {
      switch (rule.action) {
        case "route":
          return await (early ?? this.#query(rule));
        case "respond": {
          const view = views.get(rule.needs.length === 1 ? rule.needs[0] : LATEST);
          return view ? view.wire : buildResponse(query, RCODE.SERVFAIL);
        }
        case "reject":
          return buildResponse(query, RCODE.REFUSED);
        default:
          return predefinedResponse(rule.predefined!, query);
      }
    })();
    this.#result.catch(() => {}); // awaited in run(); no unhandled rejection meanwhile
  }
}

async function settle(reads: Map<string, Pending | undefined>): Promise<Views> {
  const views: Views = new Map();
  for (const [name, p] of reads) views.set(name, p ? await p : undefined);
  return views;
}
