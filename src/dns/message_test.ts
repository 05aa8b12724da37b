import assert from "node:assert/strict";
import { DnsError } from "../common/errors.ts";
import {
  answerAddresses,
  buildQuery,
  buildResponse,
  cacheTtl,
  clientSubnetOf,
  decodeMessage,
  messageId,
  parseClientSubnet,
  questionOf,
  RCODE,
  rcodeOf,
  rewriteTtl,
  setId,
  withClientSubnet,
} from "./message.ts";

const query = buildQuery("Example.COM", "A", 0x1234);

function response(): Uint8Array {
  return buildResponse(query, RCODE.NOERROR, {
    answers: [
      { name: "example.com", type: "A", ttl: 300, data: "1.2.3.4" },
      { name: "example.com", type: "AAAA", ttl: 60, data: "2001:db8::1" },
    ],
    additionals: [{ name: ".", type: "OPT", udpPayloadSize: 1232, flags: 0, options: [] }],
  });
}

Deno.test("question, id and rcode of a built response", () => {
  const r = response();
  assert.equal(messageId(r), 0x1234);
  assert.deepEqual(questionOf(r), { name: "example.com", type: 1, class: 1 });
  assert.equal(rcodeOf(r), 0);
  assert.equal(messageId(setId(r, 7)), 7);
  assert.equal(messageId(r), 0x1234, "setId copies");
  assert.equal(rcodeOf(buildResponse(query, RCODE.NXDOMAIN)), 3);
});

Deno.test("addresses, min TTL and TTL rewrite", () => {
  const r = response();
  assert.deepEqual(answerAddresses(r), ["1.2.3.4", "2001:db8::1"]);
  assert.equal(cacheTtl(r), 60);
  const rewritten = rewriteTtl(r, 5);
  assert.equal(cacheTtl(rewritten), 5);
  assert.deepEqual(decodeMessage(rewritten).answers!.map((a) => a.ttl), [5, 5]);
  assert.equal(cacheTtl(rewriteTtl(r, (old) => old - 50)), 10);
});

Deno.test("negative answers keep the SOA minimum", () => {
  const r = buildResponse(query, RCODE.NXDOMAIN, {
    authorities: [{
      name: "com",
      type: "SOA",
      ttl: 900,
      data: {
        mname: "a.gtld-servers.net",
        rname: "nstld.verisign-grs.com",
        serial: 1,
        refresh: 1800,
        retry: 900,
        expire: 604800,
        minimum: 120,
      },
    }],
  });
  assert.equal(cacheTtl(r), 120);
  assert.equal(cacheTtl(buildResponse(query, RCODE.NOERROR)), undefined);
});

Deno.test("client subnet: add, replace, remove", () => {
  const subnet = parseClientSubnet("1.2.3.0/24")!;
  const q1 = withClientSubnet(query, subnet);
  assert.equal(clientSubnetOf(decodeMessage(q1)), "1.2.3.0/24");
  const q2 = withClientSubnet(q1, parseClientSubnet("2001:db8::1")!);
  assert.equal(clientSubnetOf(decodeMessage(q2)), "2001:db8::1/128");
  const opts = decodeMessage(q2).additionals!.filter((r) => r.type === "OPT");
  assert.equal(opts.length, 1);
  const q3 = withClientSubnet(q2, undefined);
  assert.equal(clientSubnetOf(decodeMessage(q3)), "");
  assert.equal(withClientSubnet(query, undefined), query, "nothing to remove keeps the bytes");
  assert.deepEqual(questionOf(q3), questionOf(query));
});

/** A small deterministic PRNG (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

function onlyDnsError(f: () => unknown, input: Uint8Array): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof DnsError)) {
      throw new Error(`non-DnsError on ${Array.from(input).join(",")}: ${e}`);
    }
  }
}

function exerciseAll(b: Uint8Array): void {
  onlyDnsError(() => decodeMessage(b), b);
  onlyDnsError(() => questionOf(b), b);
  onlyDnsError(() => cacheTtl(b), b);
  onlyDnsError(() => answerAddresses(b), b);
  onlyDnsError(() => rewriteTtl(b, 1), b);
  onlyDnsError(() => rcodeOf(b), b);
  onlyDnsError(() => setId(b, 1), b);
  onlyDnsError(() => withClientSubnet(b, parseClientSubnet("10.0.0.0/8")), b);
  onlyDnsError(() => buildResponse(b, 2), b);
}

Deno.test("fuzz: random bytes raise only DnsError", () => {
  const rand = rng(12345);
  for (let i = 0; i < 3000; i++) {
    const b = new Uint8Array(Math.floor(rand() * 80));
    for (let k = 0; k < b.length; k++) b[k] = Math.floor(rand() * 256);
    // Small counts make the sections reachable more often.
    if (b.length > 12 && rand() < 0.7) {
      for (const at of [4, 6, 8, 10]) (b[at] = 0, b[at + 1] = Math.floor(rand() * 3));
    }
    exerciseAll(b);
  }
});

Deno.test("fuzz: mutated and truncated messages raise only DnsError", () => {
  const rand = rng(777);
  const seeds = [response(), withClientSubnet(query, parseClientSubnet("1.2.3.0/24")), query];
  for (let i = 0; i < 4000; i++) {
    const seed = seeds[i % seeds.length];
    const b = seed.slice(0, rand() < 0.3 ? Math.floor(rand() * seed.length) : seed.length);
    const flips = 1 + Math.floor(rand() * 4);
    for (let k = 0; k < flips && b.length > 0; k++) {
      b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
    }
    exerciseAll(b);
  }
});
