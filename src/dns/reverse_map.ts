/**
 * `reverse_mapping`: remembers the name of each address seen in answers to clients, so a later
 * connection to that address matches domain rules. Bounded (least recently used goes first).
 */
export class ReverseMap {
  readonly #map = new Map<string, string>();
  constructor(private readonly capacity = 65536) {}

  remember(name: string, addresses: readonly string[]): void {
    const n = name.toLowerCase().replace(/\.$/, "");
    for (const a of addresses) {
      this.#map.delete(a);
      this.#map.set(a, n);
      if (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value!);
    }
  }

  nameOf(address: string): string | undefined {
    return this.#map.get(address);
  }
}
