/**
 * A bounded queue with one async reader, for datagrams arriving on a socket before a reader asks:
 * past `capacity` new items are dropped (UDP may drop; memory must not grow without limit).
 */
export class PacketQueue<T> {
  private readonly items: T[] = [];
  private waiter?: () => void;
  private closedFlag = false;

  constructor(private readonly capacity = 1024) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Adds an item; false when it was dropped (full or closed). */
  push(item: T): boolean {
    if (this.closedFlag || this.items.length >= this.capacity) return false;
    this.items.push(item);
    this.wake();
    return true;
  }

  /** The next item, or null once closed and drained. */
  async shift(): Promise<T | null> {
    while (this.items.length === 0) {
      if (this.closedFlag) return null;
      await new Promise<void>((r) => (this.waiter = r));
    }
    return this.items.shift()!;
  }

  close(): void {
    this.closedFlag = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
