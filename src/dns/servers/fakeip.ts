/**
 * `fakeip`: answers A and AAAA with an address from its range standing for the asked name, so a
 * later connection to that address is routed by the name (the engine maps it back). Other query
 * types get an empty answer. TTL 1, as fake answers must not outlive the mapping in caches.
 */
import { buildResponse, questionOf, RCODE, TYPE } from "../message.ts";
import type { FakeIpPool } from "../fakeip.ts";
import type { DnsTransport } from "../transport.ts";

const FAKE_TTL = 1;

export class FakeIpTransport implements DnsTransport {
  readonly type = "fakeip";
  constructor(readonly tag: string, readonly pool: FakeIpPool) {}

  exchange(query: Uint8Array): Promise<Uint8Array> {
    const q = questionOf(query);
    if (!q) return Promise.resolve(buildResponse(query, RCODE.FORMERR));
    const version = q.type === TYPE.A ? 4 : q.type === TYPE.AAAA ? 6 : 0;
    const address = version ? this.pool.addressFor(q.name, version) : undefined;
    if (!address) return Promise.resolve(buildResponse(query, RCODE.NOERROR));
    return Promise.resolve(buildResponse(query, RCODE.NOERROR, {
      answers: [{ name: q.name, type: version === 4 ? "A" : "AAAA", ttl: FAKE_TTL, data: address }],
    }));
  }

  close(): void {}
}
