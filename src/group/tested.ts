/**
 * Groups that test their members (urltest, fallback, load-balance): tested on first use, then
 * every `interval` while used within `idle_timeout`; with `lazy: false` from start, always.
 */
import type { Metadata, Outbound } from "../adapter/mod.ts";
import type { DelayRecord, HealthTask } from "./health.ts";
import { type GroupEnv, GroupOutbound } from "./group.ts";

export interface TestOptions {
  url: string;
  interval: number;
  idle_timeout: number;
  lazy?: boolean;
  timeout?: number;
}

/** mihomo's default for one test. */
const DEFAULT_TIMEOUT = 5000;

export abstract class TestedGroup extends GroupOutbound {
  readonly url: string;
  readonly interval: number;
  readonly idleTimeout: number;
  readonly lazy: boolean;
  readonly timeout: number;
  #task?: HealthTask;
  #lastUsed = -Infinity;

  constructor(type: string, tag: string, members: string[], o: TestOptions, env: GroupEnv) {
    super(type, tag, members, env);
    let url: URL | undefined;
    try {
      url = new URL(o.url);
    } catch { /* reported below */ }
    if (url?.protocol !== "http:" && url?.protocol !== "https:") {
      throw new Error(`"url" must be an http or https URL: "${o.url}"`);
    }
    this.url = o.url;
    this.interval = o.interval;
    this.idleTimeout = o.idle_timeout;
    this.lazy = o.lazy ?? true;
    this.timeout = o.timeout ?? DEFAULT_TIMEOUT;
  }

  start(): Promise<void> {
    if (!this.lazy) this.#schedule();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#task?.cancel();
    this.#task = undefined;
    return Promise.resolve();
  }

  /** Whether periodic tests are running now. */
  get testing(): boolean {
    return this.#task !== undefined;
  }

  /** A member's recent test results, oldest first (shared by every group testing it). */
  history(tag: string): readonly DelayRecord[] {
    return this.env.health.history(tag);
  }

  /** Tests every member at once and lets the policy update. */
  async testAll(): Promise<Map<string, DelayRecord>> {
    const { health } = this.env;
    const results = await Promise.all(this.members.map(async (tag) => {
      try {
        return [tag, await health.check(this.member(tag), this.url, this.timeout)] as const;
      } catch (e) {
        health.markDown(tag, e);
        return [tag, health.last(tag)!] as const;
      }
    }));
    this.onTested();
    return new Map(results);
  }

  /** Called after each round of tests. */
  protected onTested(): void {}

  /** Marks the group used now; starts testing when it was idle. */
  protected touch(): void {
    this.#lastUsed = this.env.health.clock.now();
    this.#schedule();
  }

  #schedule() {
    if (this.#task) return;
    this.#task = this.env.health.every(this.interval, async () => {
      const idle = this.env.health.clock.now() - this.#lastUsed > this.idleTimeout;
      if (this.lazy && idle) {
        // Idle: stop until the next use, which tests again at once.
        this.#task?.cancel();
        this.#task = undefined;
        return;
      }
      await this.testAll();
    });
  }

  protected alive(): string[] {
    return this.members.filter((t) => !this.env.health.isDown(t));
  }

  protected override open<T>(
    metadata: Metadata,
    signal: AbortSignal | undefined,
    f: (o: Outbound) => Promise<T>,
  ): Promise<T> {
    this.touch();
    return super.open(metadata, signal, f);
  }
}
