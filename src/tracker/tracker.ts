/**
 * The one list of live connections: id, metadata, chosen outbound and rule, start time and live
 * byte counters. The APIs read it and close connections through it; nothing else keeps a list.
 */
import type { Metadata } from "../adapter/mod.ts";

export interface TrackedConnection {
  readonly id: string;
  readonly metadata: Metadata;
  readonly outbound: string;
  /** Outbound tags from the chosen one to the one that dialed (groups add members). */
  readonly chain: readonly string[];
  /** Text of the rule that decided ("final" when none matched). */
  readonly rule: string;
  readonly startMs: number;
  /** Bytes client→remote (`up`) and remote→client (`down`), updated live. */
  readonly counters: { up: number; down: number };
  /** Ends the connection (both sides). */
  close(): void;
}

export interface TrackerOptions {
  now?: () => number;
  newId?: () => string;
}

export class Tracker {
  private readonly live = new Map<string, TrackedConnection>();
  private closedUp = 0;
  private closedDown = 0;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(opts: TrackerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? (() => crypto.randomUUID());
  }

  add(entry: {
    metadata: Metadata;
    outbound: string;
    chain?: string[];
    rule: string;
    close: () => void;
  }): TrackedConnection {
    const t: TrackedConnection = {
      id: this.newId(),
      metadata: entry.metadata,
      outbound: entry.outbound,
      chain: entry.chain ?? [entry.outbound],
      rule: entry.rule,
      startMs: this.now(),
      counters: { up: 0, down: 0 },
      close: entry.close,
    };
    this.live.set(t.id, t);
    return t;
  }

  remove(t: TrackedConnection): void {
    if (this.live.delete(t.id)) {
      this.closedUp += t.counters.up;
      this.closedDown += t.counters.down;
      if (this.live.size === 0) {
        for (const w of this.emptyWaiters.splice(0)) w();
      }
    }
  }

  private readonly emptyWaiters: (() => void)[] = [];

  /** Resolves once no connection is live (stop waits on this within its deadline). */
  whenEmpty(): Promise<void> {
    if (this.live.size === 0) return Promise.resolve();
    return new Promise((r) => this.emptyWaiters.push(r));
  }

  get(id: string): TrackedConnection | undefined {
    return this.live.get(id);
  }

  list(): TrackedConnection[] {
    return [...this.live.values()];
  }

  get size(): number {
    return this.live.size;
  }

  /** Bytes carried since start, closed connections included. */
  totals(): { up: number; down: number } {
    let up = this.closedUp, down = this.closedDown;
    for (const t of this.live.values()) {
      up += t.counters.up;
      down += t.counters.down;
    }
    return { up, down };
  }

  /** Closes every live connection (stop, or the APIs' DELETE /connections). */
  closeAll(): void {
    for (const t of [...this.live.values()]) t.close();
  }
}
