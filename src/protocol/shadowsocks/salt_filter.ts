/**
 * Remembers recent salts so a replayed request is refused (SIP022 requires it; for SIP004 it
 * stops replays of recorded sessions, as ss-libev's ping-pong bloom filter does).
 * Two generations of sets: the current one is retired after `periodMs` or when it holds
 * `capacity` salts, so memory stays bounded (at most 2 × capacity salts) whatever arrives.
 * A salt is remembered for at least `periodMs` unless a flood of new salts rotates it out earlier.
 */
export class SaltFilter {
  private current = new Set<string>();
  private previous = new Set<string>();
  private rotatedAt: number;

  constructor(
    private readonly capacity = 100_000,
    private readonly periodMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.rotatedAt = now();
  }

  /** Records `salt`; false when it was seen already (a replay). */
  add(salt: Uint8Array): boolean {
    const key = String.fromCharCode(...salt);
    if (this.current.has(key) || this.previous.has(key)) return false;
    const t = this.now();
    if (this.current.size >= this.capacity || t - this.rotatedAt >= this.periodMs) {
      this.previous = this.current;
      this.current = new Set();
      this.rotatedAt = t;
    }
    this.current.add(key);
    return true;
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}
