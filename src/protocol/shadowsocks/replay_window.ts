/**
 * Sliding-window replay protection for SIP022 UDP packet ids (the scheme of RFC 6479 and
 * WireGuard): ids far behind the newest are refused, ids inside the window are accepted once.
 */
const WINDOW = 2048;
const WORDS = WINDOW / 32;

export class ReplayWindow {
  private readonly bits = new Uint32Array(WORDS);
  private last = -1;

  /** Records `id`; false when it is a replay or too old. */
  accept(id: number): boolean {
    if (id > this.last) {
      const gap = id - this.last;
      if (gap >= WINDOW) this.bits.fill(0);
      else for (let i = this.last + 1; i <= id; i++) this.bits[(i >>> 5) % WORDS] &= ~(1 << (i & 31));
      this.last = id;
    } else if (this.last - id >= WINDOW) {
      return false;
    }
    const w = (id >>> 5) % WORDS;
    const b = 1 << (id & 31);
    if (this.bits[w] & b) return false;
    this.bits[w] |= b;
    return true;
  }
}
