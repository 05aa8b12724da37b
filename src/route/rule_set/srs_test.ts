import assert from "node:assert/strict";
import { deflateSync, inflateSync } from "node:zlib";
import { ProtocolError } from "../../common/errors.ts";
import { readSrs, writeSrs } from "./srs.ts";
import type { PlainRuleSet } from "./types.ts";

const u64 = (n: number) => [0, 0, 0, 0, 0, 0, 0, n];

/** Bodies assembled by hand from sing-box's format description (common/srs, sing common/domain). */
const IP_BODY = [1, 0, 6, 1, ...u64(1), 4, 10, 0, 0, 0, 4, 10, 255, 255, 255, 0xff, 0];
// One exact domain "a": root --'a'--> leaf. leaves = bit 1; bitmap = 0 (label), 1 (end root), 1 (end leaf).
const DOMAIN_BODY = [1, 0, 2, 0, 1, ...u64(2), 1, ...u64(6), 1, 0x61, 0xff, 1];

function file(version: number, body: number[]): Uint8Array {
  const z = deflateSync(new Uint8Array(body));
  return new Uint8Array([0x53, 0x52, 0x53, version, ...z]);
}

Deno.test("srs: hand-assembled IP set and domain trie decode", () => {
  assert.deepEqual(readSrs(file(1, IP_BODY)), { version: 1, rules: [{ ip_cidr: ["10.0.0.0/8"] }] });
  assert.deepEqual(readSrs(file(2, DOMAIN_BODY)), { version: 2, rules: [{ domain: ["a"], invert: true }] });
});

Deno.test("srs: our encoder writes those same bytes", () => {
  const ip = writeSrs({ version: 1, rules: [{ ip_cidr: ["10.0.0.0/8"] }] });
  assert.deepEqual([...ip.subarray(0, 4)], [0x53, 0x52, 0x53, 1]);
  assert.deepEqual([...inflateSync(ip.subarray(4))], IP_BODY);
  const dom = writeSrs({ version: 2, rules: [{ domain: ["a"], invert: true }] });
  assert.deepEqual([...inflateSync(dom.subarray(4))], DOMAIN_BODY);
});

Deno.test("srs: round trip of every item kind, suffix forms, IPv6, logical rules, versions 1 and 3", () => {
  for (const version of [1, 3]) {
    const set: PlainRuleSet = {
      version,
      rules: [
        {
          query_type: [1, 28],
          network: ["tcp"],
          domain: ["exact.com", "bücher.de"],
          domain_keyword: ["kw"],
          domain_regex: ["^x\\.y$"],
          source_ip_cidr: ["192.168.0.0/16"],
          ip_cidr: ["1.2.3.4/32", "2001:db8::/32", "10.0.0.0/9", "10.128.0.0/9"],
          source_port: [53],
          source_port_range: ["1000:2000"],
          port: [443, 80],
          port_range: [":100"],
          process_name: ["curl"],
        },
        {
          type: "logical",
          mode: "or",
          rules: [{ domain_suffix: ["example.org", ".only-sub.net"] }, { port: [1], invert: true }],
          invert: true,
        },
      ],
    };
    if (version === 3) set.rules[0].network_type = ["wifi", "ethernet"];
    const back = readSrs(writeSrs(set));
    assert.equal(back.version, version);
    const r0 = back.rules[0];
    assert.deepEqual(r0.domain?.sort(), ["bücher.de", "exact.com"]);
    assert.deepEqual(r0.ip_cidr, ["1.2.3.4/32", "10.0.0.0/8", "2001:db8::/32"]);
    assert.deepEqual(r0.port, [443, 80]);
    assert.deepEqual(r0.query_type, [1, 28]);
    if (version === 3) assert.deepEqual(r0.network_type, ["wifi", "ethernet"]);
    const logical = back.rules[1];
    assert.equal(logical.mode, "or");
    assert.equal(logical.invert, true);
    const sub = logical.rules![0];
    // Version 1 spells "example.org" as the name plus ".example.org"; later versions use the root marker.
    const names = [...(sub.domain ?? []), ...(sub.domain_suffix ?? [])].sort();
    assert.deepEqual(
      names,
      version === 1 ? [".example.org", ".only-sub.net", "example.org"] : [".only-sub.net", "example.org"],
    );
  }
});

Deno.test("srs: bad magic, version, truncation and fuzzed bytes throw ProtocolError", () => {
  assert.throws(() => readSrs(new Uint8Array([1, 2, 3, 4])), ProtocolError);
  assert.throws(() => readSrs(file(9, IP_BODY)), /version 9/);
  const good = writeSrs({
    version: 2,
    rules: [{ domain_suffix: ["a.com", "b.org"], ip_cidr: ["1.0.0.0/8"] }],
  });
  for (let n = 0; n < good.length; n++) assert.throws(() => readSrs(good.subarray(0, n)));
  const body = inflateSync(good.subarray(4));
  for (let i = 0; i < 2000; i++) {
    const m = new Uint8Array(body);
    for (let k = 0; k < 3; k++) m[Math.floor(Math.random() * m.length)] = Math.floor(Math.random() * 256);
    try {
      readSrs(
        new Uint8Array([
          0x53,
          0x52,
          0x53,
          2,
          ...deflateSync(m.subarray(0, Math.floor(Math.random() * m.length) + 1)),
        ]),
      );
    } catch (e) {
      assert.ok(e instanceof ProtocolError, String(e));
    }
  }
});
