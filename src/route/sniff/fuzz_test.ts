/**
 * Fuzzing with a seeded PRNG: random bytes, and truncations and mutations of every fixture, into both
 * entry points and into every sniffer directly (past the entry points' safety net). Nothing may throw,
 * and every answer must be one of the three kinds with a well-formed result.
 */
import { ok } from "node:assert/strict";
import { sniffBitTorrentPacket, sniffBitTorrentStream } from "./bittorrent.ts";
import { sniffDnsPacket, sniffDnsStream } from "./dns.ts";
import { normalizeDomain } from "./domain.ts";
import { sniffDtls } from "./dtls.ts";
import { sniffHttp } from "./http.ts";
import { sniffPackets, sniffStream } from "./mod.ts";
import { sniffNtp } from "./ntp.ts";
import { sniffQuic } from "./quic.ts";
import { sniffRdp } from "./rdp.ts";
import { sniffSsh } from "./ssh.ts";
import { sniffStun } from "./stun.ts";
import { sniffTls } from "./tls.ts";
import { allFixtures, buildClientHello, buildInitial, frame } from "./test_util.ts";
import type { SniffOutcome } from "./types.ts";

const STREAM = [sniffTls, sniffHttp, sniffSsh, sniffRdp, sniffBitTorrentStream, sniffDnsStream];
const PACKET = [sniffQuic, sniffDnsPacket, sniffStun, sniffDtls, sniffNtp, sniffBitTorrentPacket];

/** mulberry32: a small seeded PRNG, so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function check(outcome: SniffOutcome, what: string): void {
  ok(outcome.kind === "found" || outcome.kind === "need_more" || outcome.kind === "none", what);
  if (outcome.kind !== "found") return;
  const { protocol, domain, client } = outcome.result;
  ok(typeof protocol === "string" && protocol.length > 0, what);
  ok(domain === undefined || normalizeDomain(domain) === domain, `${what}: domain ${domain}`);
  ok(client === undefined || typeof client === "string", what);
}

function stream(data: Uint8Array, what: string): void {
  check(sniffStream(data), what);
  for (const s of STREAM) check(s(data), `${what} ${s.name}`);
}

function packets(ps: Uint8Array[], what: string): void {
  check(sniffPackets(ps), what);
  for (const s of PACKET) check(s(ps), `${what} ${s.name}`);
}

function mutate(rand: () => number, data: Uint8Array): Uint8Array {
  const int = (n: number) => Math.floor(rand() * n);
  let out = data.slice();
  const edits = 1 + int(6);
  for (let i = 0; i < edits; i++) {
    const at = int(out.length + 1);
    switch (int(5)) {
      case 0: // truncate
        out = out.slice(0, at);
        break;
      case 1: // flip bits
        if (out.length) out[at % out.length] ^= 1 << int(8);
        break;
      case 2: // set an interesting byte
        if (out.length) out[at % out.length] = [0, 1, 0x7f, 0x80, 0xff, 0x0a, 0x3a][int(7)];
        break;
      case 3: { // insert random bytes
        const ins = Uint8Array.from({ length: 1 + int(8) }, () => int(256));
        out = Uint8Array.from([...out.subarray(0, at), ...ins, ...out.subarray(at)]);
        break;
      }
      default: // delete a run
        out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(at + 1 + int(8))]);
    }
  }
  return out;
}

Deno.test("fuzz: random bytes", () => {
  const rand = prng(1);
  for (let i = 0; i < 1500; i++) {
    const data = Uint8Array.from(
      { length: Math.floor(rand() * (i % 10 === 0 ? 3000 : 200)) },
      () => rand() * 256,
    );
    // Give half of them a plausible first byte so the deeper parsers run.
    if (data.length && i % 2) {
      data[0] = [0x16, 0x47, 0x53, 0x03, 0x13, 0x00, 0xc3, 0xd3, 0x41, 0x64, 0xe3][i % 11];
    }
    stream(data, `random ${i}`);
    packets([data], `random ${i}`);
    packets([data, data.subarray(1)], `random pair ${i}`);
  }
});

Deno.test("fuzz: truncated and mutated fixtures", () => {
  const rand = prng(2);
  const { streams, packets: groups } = allFixtures();
  for (let round = 0; round < 60; round++) {
    for (const [n, data] of streams.entries()) {
      stream(data.subarray(0, Math.floor(rand() * (data.length + 1))), `truncated stream ${n}`);
      stream(mutate(rand, data), `mutated stream ${n} round ${round}`);
    }
    for (const [n, group] of groups.entries()) {
      const cut = group.map((p) => p.subarray(0, Math.floor(rand() * (p.length + 1))));
      packets(cut, `truncated packets ${n}`);
      const mutated = group.map((p) => rand() < 0.5 ? mutate(rand, p) : p);
      packets(mutated, `mutated packets ${n} round ${round}`);
      // As one stream too: the router never mixes them, but nothing may break on it.
      stream(group[0], `packet as stream ${n}`);
    }
  }
});

Deno.test("fuzz: decryptable QUIC Initials with random and mutated frames", () => {
  const rand = prng(3);
  const hello = buildClientHello({ sni: "fuzz.test", alpn: ["h3"], groups: [29], versions: [0x0304] });
  for (let i = 0; i < 400; i++) {
    const frames = i % 2
      ? [Uint8Array.from({ length: 2 + Math.floor(rand() * 300) }, () => rand() * 256)]
      : [mutate(rand, frame.crypto(Math.floor(rand() * 100), hello)), frame.padding(Math.floor(rand() * 50))];
    if (i % 4 === 0) frames[0][0] = [0x00, 0x01, 0x02, 0x03, 0x06, 0x1c][Math.floor(rand() * 6)];
    const packet = buildInitial({ frames, packetNumber: i });
    packets([packet], `quic frames ${i}`);
    packets([packet, buildInitial({ frames: [frame.crypto(0, hello.subarray(0, 64))] })], `quic pair ${i}`);
  }
});
