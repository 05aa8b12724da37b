/**
 * Grouping, invert and logical semantics, checked against sing-box route/rule/rule_abstract.go:
 * items of one group OR, groups AND, plain items AND; domain items and ip_cidr/ip_is_private share
 * the destination-address group; invert negates; a rule with no items matches (before invert).
 */
import { equal, ok, throws } from "node:assert/strict";
import { ConfigError } from "../../common/errors.ts";
import { compileRule } from "./compile.ts";
import { ROUTE_CONDITIONS } from "./registry.ts";
import { meta, to } from "./test_util.ts";
import type { ConditionDef, RuleInput } from "./types.ts";

const matcher = (rule: RuleInput) => {
  const m = compileRule(rule);
  return m.match.bind(m);
};

Deno.test("domain items and ip_cidr OR together in one destination group", () => {
  const rule = matcher({ domain_suffix: ["example.com"], ip_cidr: ["10.0.0.0/8"] });
  ok(rule(to("www.example.com")));
  ok(rule(to("10.1.1.1")));
  ok(rule(to("other.org", 443, { resolvedAddresses: ["10.0.0.1"] })));
  ok(!rule(to("other.org")));
  const priv = matcher({ domain: ["a.test"], ip_is_private: true });
  ok(priv(to("a.test")));
  ok(priv(to("192.168.0.1")));
  ok(!priv(to("8.8.8.8")));
});

Deno.test("different groups AND together", () => {
  const rule = matcher({ domain_suffix: ["example.com"], port: [443], source_ip_cidr: ["192.168.0.0/16"] });
  ok(rule(to("example.com", 443)));
  ok(!rule(to("example.com", 80)));
  ok(!rule(to("other.org", 443)));
  ok(!rule(to("example.com", 443, { source: { host: "10.0.0.1", port: 1 } })));
});

Deno.test("port and port_range OR; source_port and source_port_range OR", () => {
  const rule = matcher({ port: [80], port_range: ["8000:8100"] });
  ok(rule(to("a.test", 80)));
  ok(rule(to("a.test", 8050)));
  ok(!rule(to("a.test", 443)));
  const src = matcher({ source_port: [1], source_port_range: ["50000:50001"] });
  ok(src(meta()));
  ok(!src(meta({ source: { host: "1.1.1.1", port: 2 } })));
});

Deno.test("source_ip_cidr and source_ip_is_private OR together", () => {
  const rule = matcher({ source_ip_cidr: ["203.0.113.0/24"], source_ip_is_private: true });
  ok(rule(meta()));
  ok(rule(meta({ source: { host: "203.0.113.5", port: 1 } })));
  ok(!rule(meta({ source: { host: "198.51.100.5", port: 1 } })));
});

Deno.test("plain items each must hold", () => {
  const rule = matcher({ inbound: ["in"], network: ["tcp"], protocol: ["tls"] });
  ok(rule(meta({ protocol: "tls" })));
  ok(!rule(meta({ protocol: "tls", network: "udp" })));
  ok(!rule(meta()));
});

Deno.test("source and destination address groups are separate", () => {
  // ip_cidr is the destination group, source_ip_cidr the source group: both must hold.
  const rule = matcher({ source_ip_cidr: ["192.168.0.0/16"], ip_cidr: ["10.0.0.0/8"] });
  ok(rule(to("10.0.0.1")));
  ok(!rule(to("11.0.0.1")));
  ok(!rule(to("10.0.0.1", 443, { source: { host: "8.8.8.8", port: 1 } })));
});

Deno.test("invert negates the whole default rule", () => {
  const rule = matcher({ domain_suffix: ["example.com"], port: [443], invert: true });
  ok(!rule(to("example.com", 443)));
  ok(rule(to("example.com", 80)));
  ok(rule(to("other.org", 443)));
});

Deno.test("a rule without conditions matches everything, invert or not", () => {
  const plain = compileRule({});
  equal(plain.conditionCount, 0);
  ok(plain.match(meta()));
  const inverted = compileRule({ invert: true });
  equal(inverted.conditionCount, 0);
  ok(inverted.match(meta()));
});

Deno.test("conditionCount counts set condition fields, nested ones included", () => {
  equal(compileRule({ domain: ["a.test"], domain_suffix: ["b.test"], port: [1] }).conditionCount, 3);
  equal(compileRule({ inbound: [], port: [1] }).conditionCount, 1);
  equal(
    compileRule({
      type: "logical",
      mode: "or",
      rules: [{ domain: ["a.test"] }, {
        type: "logical",
        mode: "and",
        rules: [{ port: [1] }, { network: ["tcp"] }],
      }],
    }).conditionCount,
    3,
  );
});

Deno.test("logical and / or, nested, with invert", () => {
  const a = { domain_suffix: ["example.com"] };
  const b = { port: [443] };
  const and = matcher({ type: "logical", mode: "and", rules: [a, b] });
  ok(and(to("example.com", 443)));
  ok(!and(to("example.com", 80)));
  const or = matcher({ type: "logical", mode: "or", rules: [a, b] });
  ok(or(to("example.com", 80)));
  ok(or(to("other.org", 443)));
  ok(!or(to("other.org", 80)));
  const nand = matcher({ type: "logical", mode: "and", rules: [a, b], invert: true });
  ok(!nand(to("example.com", 443)));
  ok(nand(to("example.com", 80)));
  // (a AND NOT b) OR network=udp
  const nested = matcher({
    type: "logical",
    mode: "or",
    rules: [
      { type: "logical", mode: "and", rules: [a, { ...b, invert: true }] },
      { network: ["udp"] },
    ],
  });
  ok(nested(to("example.com", 80)));
  ok(!nested(to("example.com", 443)));
  ok(nested(to("example.com", 443, { network: "udp" })));
  ok(!nested(to("other.org", 80)));
});

Deno.test("logical rules are checked like sing-box NewLogicalRule", () => {
  const path = (p: string) => (e: unknown) => e instanceof ConfigError && e.path === p;
  throws(() => compileRule({ type: "logical", mode: "and", rules: [] }), path("/rules"));
  throws(() => compileRule({ type: "logical", mode: "xor" as "and", rules: [{ port: [1] }] }), path("/mode"));
  throws(() => compileRule({ type: "logical", mode: "or", rules: [{ port: [1] }, {}] }), path("/rules/1"));
  throws(() => compileRule({ type: "logical", mode: "or", rules: [{ invert: true }] }), /missing conditions/);
  throws(() => compileRule({ type: "weird" as "default" }), path("/type"));
  throws(
    () =>
      compileRule({ type: "logical", mode: "or", rules: [{ ip_cidr: ["x"] }] }, { path: "/route/rules/4" }),
    path("/route/rules/4/rules/0/ip_cidr/0"),
  );
});

Deno.test("a custom condition list extends the registry (how later kinds plug in)", () => {
  const sniffed: ConditionDef = {
    fields: ["sniff_done"],
    group: "item",
    compile: () => (m) => m.sniffDone === true,
  };
  const rule = compileRule({ sniff_done: true, port: [443] } as RuleInput, {
    conditions: [...ROUTE_CONDITIONS, sniffed],
  });
  equal(rule.conditionCount, 2);
  ok(rule.match(to("a.test", 443, { sniffDone: true })));
  ok(!rule.match(to("a.test", 443)));
});

Deno.test("mergeDestinationIp false keeps ip_cidr a group of its own (for DNS rules)", () => {
  const rule = compileRule({ domain: ["a.test"], ip_cidr: ["10.0.0.0/8"] }, { mergeDestinationIp: false });
  ok(!rule.match(to("a.test")));
  ok(rule.match(to("a.test", 443, { resolvedAddresses: ["10.0.0.1"] })));
});
