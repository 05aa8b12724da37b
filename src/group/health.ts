/**
 * The engine's one health-check scheduler: every group's periodic test runs off a single timer,
 * with jitter so groups with the same interval do not test in lockstep. A member is never tested
 * twice at once (a second request joins the test in flight), and each member's recent results
 * are kept for the APIs.
 */
import type { Outbound } from "../adapter/mod.ts";
import { errorText } from "../common/errors.ts";
import { type Clock, systemClock } from "./clock.ts";

/** One test's outcome: `delay` in ms, or an error text when it failed. */
export interface DelayRecord {
  time: number;
  delay?: number;
  error?: string;
}

/** Times one request through `member`; resolves to the delay in ms, rejects when it fails. */
export type Probe = (member: Outbound, url: string, timeoutMs: number) => Promise<number>;

/** A periodic job; cancel() stops it, touch() runs it now unless it ran within `fresh` ms. */
export interface HealthTask {
  cancel(): void;
}

interface TaskState {
  due: number;
  interval: number;
  run: () => Promise<void>;
  running: boolean;
}

const HISTORY = 10;
/** Intervals vary by this fraction either way. */
const JITTER = 0.1;

export class HealthChecks {
  readonly clock: Clock;
  #probe: Probe;
  #history = new Map<string, DelayRecord[]>();
  #inflight = new Map<string, Promise<DelayRecord>>();
  #tasks = new Set<TaskState>();
  #timer?: number;
  #timerDue = Infinity;

  constructor(probe: Probe, clock: Clock = systemClock) {
    this.#probe = probe;
    this.clock = clock;
  }

  /** Tests `member`, or joins the test of it already running. Never rejects. */
  check(member: Outbound, url: string, timeoutMs: number): Promise<DelayRecord> {
    const running = this.#inflight.get(member.tag);
    if (running) return running;
    const start = this.clock.now();
    const p = this.#probe(member, url, timeoutMs).then(
      (delay): DelayRecord => ({ time: start, delay: Math.max(1, Math.round(delay)) }),
      (e): DelayRecord => ({ time: start, error: errorText(e) }),
    ).then((r) => {
      this.#inflight.delete(member.tag);
      this.#record(member.tag, r);
      return r;
    });
    this.#inflight.set(member.tag, p);
    return p;
  }

  /** Records a failure seen outside a test (a dial that failed), so policies skip the member. */
  markDown(tag: string, error: unknown): void {
    this.#record(tag, { time: this.clock.now(), error: errorText(error) });
  }

  /** Recent results, oldest first. */
  history(tag: string): readonly DelayRecord[] {
    return this.#history.get(tag) ?? [];
  }

  last(tag: string): DelayRecord | undefined {
    const h = this.#history.get(tag);
    return h?.[h.length - 1];
  }

  /** Whether the last result for `tag` failed (untested members count as up). */
  isDown(tag: string): boolean {
    return this.last(tag)?.error !== undefined;
  }

  /** Runs `run` now and then every `intervalMs` (jittered) until cancelled. */
  every(intervalMs: number, run: () => Promise<void>): HealthTask {
    const t: TaskState = { due: this.clock.now(), interval: Math.max(1, intervalMs), run, running: false };
    this.#tasks.add(t);
    this.#fire();
    return {
      cancel: () => {
        this.#tasks.delete(t);
        this.#arm();
      },
    };
  }

  /** Active periodic tasks (tests, APIs). */
  get tasks(): number {
    return this.#tasks.size;
  }

  close(): void {
    this.#tasks.clear();
    this.#arm();
  }

  #record(tag: string, r: DelayRecord) {
    let h = this.#history.get(tag);
    if (!h) this.#history.set(tag, h = []);
    h.push(r);
    if (h.length > HISTORY) h.shift();
  }

  #fire() {
    const now = this.clock.now();
    for (const t of this.#tasks) {
      if (t.running || t.due > now) continue;
      t.running = true;
      t.due = Infinity;
      t.run().catch(() => {}).finally(() => {
        t.running = false;
        const jitter = 1 + JITTER * (2 * this.clock.random() - 1);
        t.due = this.clock.now() + t.interval * jitter;
        this.#arm();
      });
    }
    this.#arm();
  }

  /** Keeps exactly one timer, set for the earliest due task. */
  #arm() {
    let due = Infinity;
    for (const t of this.#tasks) due = Math.min(due, t.due);
    if (due === this.#timerDue) return;
    if (this.#timer !== undefined) this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
    this.#timerDue = due;
    if (due === Infinity) return;
    this.#timer = this.clock.setTimer(() => {
      this.#timer = undefined;
      this.#timerDue = Infinity;
      this.#fire();
    }, due - this.clock.now());
  }
}
