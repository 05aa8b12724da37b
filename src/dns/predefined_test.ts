import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as dnsPacket from "dns-packet";
import { ConfigError, UnsupportedError } from "../common/errors.ts";
import { buildQuery, decodeMessage, rcodeOf } from "./message.ts";
import { compilePredefined, parseRcode, parseZoneRecord, predefinedResponse } from "./predefined.ts";

Deno.test("zone-file records of each type", () => {
  assert.deepEqual(parseZoneRecord("localhost. IN A 127.0.0.1"), {
    name: "localhost",
    type: "A",
    class: "IN",
    ttl: 3600,
    data: "127.0.0.1",
  });
  assert.equal(parseZoneRecord("localhost. 60 IN AAAA ::1").ttl, 60);
  assert.equal(parseZoneRecord("localhost. IN 30 AAAA ::1").ttl, 30);
  assert.deepEqual(parseZoneRecord('a. IN TXT "Hello world" "x\\"y"').data, ["Hello world", 'x"y']);
  assert.deepEqual(parseZoneRecord("a. MX 10 mail.a.").data, { preference: 10, exchange: "mail.a." });
  assert.deepEqual(parseZoneRecord("_s._tcp.a. SRV 1 2 443 t.a.").data, {
    priority: 1,
    weight: 2,
    port: 443,
    target: "t.a.",
  });
  for (const t of ["CNAME", "NS", "PTR"]) assert.equal(parseZoneRecord(`a. IN ${t} b.`).data, "b.");
});

Deno.test("bad records name the field", () => {
  const bad = (rule: Record<string, unknown>, path: string) =>
    assert.throws(
      () => compilePredefined(rule, "/dns/rules/0"),
      (e) => e instanceof ConfigError && e.path === path,
    );
  bad({ answer: ["a. IN A 1.2.3"] }, "/dns/rules/0/answer/0");
  bad({ ns: ["a. IN A 1.2.3.4", "a. IN AAAA 1.2.3.4"] }, "/dns/rules/0/ns/1");
  bad({ extra: "a. IN" }, "/dns/rules/0/extra/0");
  bad({ answer: "a. IN HTTPS 1 . alpn=h2" }, "/dns/rules/0/answer/0");
  bad({ rcode: "NOPE" }, "/dns/rules/0/rcode");
  assert.throws(() => parseRcode(100, "/r"), UnsupportedError);
  assert.equal(parseRcode("nxdomain", "/r"), 3);
  assert.equal(parseRcode(5, "/r"), 5);
});

Deno.test("response: wildcard takes the asked name, rcode and sections", () => {
  const p = compilePredefined({
    rcode: "NXDOMAIN",
    answer: ["*.example.com. IN A 10.0.0.1", "other. IN A 10.0.0.2"],
    ns: "example.com. IN NS ns.example.com.",
  }, "");
  const r = predefinedResponse(p, buildQuery("www.Example.com", "A", 9));
  const m = decodeMessage(r);
  assert.equal(rcodeOf(r), 3);
  assert.equal(m.id, 9);
  assert.deepEqual(m.answers!.map((a) => a.name), ["www.example.com", "other"]);
  assert.equal(m.authorities![0].data, "ns.example.com");
  const r2 = decodeMessage(predefinedResponse(p, buildQuery("example.org", "A")));
  assert.equal(r2.answers![0].name, "*.example.com");
});

Deno.test("base64 wire-form record", () => {
  const codec = dnsPacket as unknown as { answer: { encode(r: unknown): Buffer } };
  const wire = codec.answer.encode({ name: "w.test", type: "A", ttl: 5, class: "IN", data: "1.1.1.1" });
  const p = compilePredefined({ answer: Buffer.from(wire).toString("base64") }, "");
  assert.equal(p.answer[0].data, "1.1.1.1");
  assert.equal(p.answer[0].ttl, 5);
});
