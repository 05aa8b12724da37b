/**
 * Time and randomness for health checks, injected so unit tests drive them without sleeping
 * (see shared/DESIGN.md: time is passed in where behaviour depends on it).
 */
export interface Clock {
  /** Milliseconds, monotonic. */
  now(): number;
  setTimer(fn: () => void, ms: number): number;
  clearTimer(id: number): void;
  /** In [0, 1): the jitter source. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => {
    // Deno's timers are numbers (node's types, loaded with node: imports, say otherwise).
    const id = setTimeout(fn, ms) as unknown as number;
    // Health timers never keep the process alive on their own.
    Deno.unrefTimer(id);
    return id;
  },
  clearTimer: (id) => clearTimeout(id),
  random: () => Math.random(),
};

/** A clock for tests: time moves only with advance(), timers fire in due order. */
export class FakeClock implements Clock {
  #now = 0;
  #next = 1;
  #timers = new Map<number, { due: number; fn: () => void }>();
  randomValue = 0.5;

  now(): number {
    return this.#now;
  }
  setTimer(fn: () => void, ms: number): number {
    const id = this.#next++;
    this.#timers.set(id, { due: this.#now + Math.max(0, ms), fn });
    return id;
  }
  clearTimer(id: number): void {
    this.#timers.delete(id);
  }
  random(): number {
    return this.randomValue;
  }
  /** Timers still pending. */
  get pending(): number {
    return this.#timers.size;
  }
  /** Moves time forward, firing each due timer and letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    while (true) {
      let first: [number, { due: number; fn: () => void }] | undefined;
      for (const e of this.#timers) if (e[1].due <= end && (!first || e[1].due < first[1].due)) first = e;
      if (!first) break;
      this.#timers.delete(first[0]);
      this.#now = Math.max(this.#now, first[1].due);
      first[1].fn();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets pending promise chains run (several macrotask turns). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setTimeout(r, 0));
}
