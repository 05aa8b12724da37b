/** Fakes for the DNS core's unit tests: a manual clock and transports answered by the test. */
import type { Metadata } from "../adapter/metadata.ts";
import { DnsError } from "../common/errors.ts";
import type { DnsModel } from "../config/model/dns.ts";
import { Dns } from "../config/model/dns.ts";
import { buildResponse, decodeMessage, type DnsRecord, questionOf, RCODE } from "./message.ts";
import type { DnsTransport } from "./transport.ts";
import type { Clock } from "./upstream.ts";

export class FakeClock implements Clock {
  t = 1_000_000;
  #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;
  now = (): number => this.t;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.t + ms, fn });
    return id;
  };
  clearTimeout = (h: unknown): void => void this.#timers.delete(h as number);
  /** Moves time on, firing due timers in order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, v]) => v.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
}

export interface Call {
  query: Uint8Array;
  name: string;
  type: number;
  signal: AbortSignal;
  resolve(r: Uint8Array): void;
  reject(e: unknown): void;
  /** Answers with A/AAAA records (TTL 60) for the question. */
  answer(addresses: string[], rcode?: number): void;
}

/** A transport whose every query waits until the test answers it (or `auto` does). */
export class FakeTransport implements DnsTransport {
  readonly type = "fake";
  readonly calls: Call[] = [];
  closed = false;
  constructor(readonly tag: string, readonly auto?: (call: Call) => void) {}

  exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const q = questionOf(query)!;
      const call: Call = {
        query,
        name: q.name,
        type: q.type,
        signal,
        resolve,
        reject,
        answer: (addresses, rcode = RCODE.NOERROR) => resolve(reply(query, addresses, rcode)),
      };
      signal.addEventListener("abort", () => reject(new DnsError("aborted")), { once: true });
      this.calls.push(call);
      this.auto?.(call);
    });
  }
  close(): void {
    this.closed = true;
  }
}

export function reply(query: Uint8Array, addresses: string[], rcode: number = RCODE.NOERROR): Uint8Array {
  const name = decodeMessage(query).questions![0].name;
  const answers: DnsRecord[] = addresses.map((a) => ({
    name,
    type: a.includes(":") ? "AAAA" : "A",
    ttl: 60,
    data: a,
  }));
  return buildResponse(query, rcode, { answers });
}

/** A transport answering every query at once with `addresses`. */
export function fixed(tag: string, addresses: string[]): FakeTransport {
  return new FakeTransport(
    tag,
    (c) => c.answer(addresses.filter((a) => a.includes(":") === (c.type === 28))),
  );
}

/** The dns model from JSON-like input, defaults filled. */
export function dnsModel(input: Record<string, unknown>): DnsModel {
  return Dns.parse(input);
}

export function meta(partial: Partial<Metadata> = {}): Metadata {
  return {
    inbound: "in",
    inboundType: "tun",
    network: "udp",
    source: { host: "192.168.1.2", port: 5000 },
    destination: { host: "1.1.1.1", port: 53 },
    ...partial,
  };
}

/** Lets pending promise callbacks run. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
