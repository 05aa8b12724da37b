import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffDnsPacket, sniffDnsStream } from "./dns.ts";
import { datagrams, fixture, fromHex } from "./test_util.ts";
import { NEED_MORE, NONE } from "./types.ts";

const found = (domain?: string) => ({
  kind: "found",
  result: domain ? { protocol: "dns", domain } : { protocol: "dns" },
});

Deno.test("dns: dig's queries over UDP and TCP give the question name", () => {
  deepStrictEqual(sniffDnsPacket(datagrams("dns_dig_udp")), found("example.test"));
  const tcp = fixture("dns_dig_tcp.bin");
  deepStrictEqual(sniffDnsStream(tcp), found("example.test"));
  for (let n = 0; n < tcp.length; n++) equal(sniffDnsStream(tcp.subarray(0, n)), NEED_MORE, `at ${n}`);
});

Deno.test("dns: built queries", () => {
  // id 0x1234, RD, one question "A.Example." type A class IN, no EDNS.
  const q = fromHex("123401000001000000000000 01410745 78616d706c65 00 0001 0001".replace(/ /g, ""));
  deepStrictEqual(sniffDnsPacket([q]), found("a.example"));
  // The root name (a priming query for NS) has no domain.
  deepStrictEqual(sniffDnsPacket([fromHex("1234010000010000000000000000020001")]), found());
  // A label with a space is not a domain name, but the message is still DNS.
  deepStrictEqual(
    sniffDnsPacket([fromHex("12340100000100000000000003612062000001 0001".replace(/ /g, ""))]),
    found(),
  );
});

Deno.test("dns: responses and malformed messages are not queries", () => {
  const udp = datagrams("dns_dig_udp")[0];
  const response = udp.slice();
  response[2] |= 0x80;
  equal(sniffDnsPacket([response]), NONE);
  equal(sniffDnsPacket([udp.subarray(0, udp.length - 1)]), NONE);
  const trailing = new Uint8Array(udp.length + 1);
  trailing.set(udp);
  equal(sniffDnsPacket([trailing]), NONE);
  // A compression pointer in the question.
  equal(sniffDnsPacket([fromHex("123401000001000000000000c00c00010001")]), NONE);
  equal(sniffDnsPacket([fromHex("123401000000000000000000")]), NONE); // no question
  equal(sniffDnsPacket([fromHex("1234010000ff000000000000")]), NONE); // 255 questions
  equal(sniffDnsStream(fromHex("0003")), NONE); // too short for a query
  equal(sniffDnsStream(fromHex("0020123481")), NONE); // QR set
  equal(sniffDnsPacket([]), NEED_MORE);
});
