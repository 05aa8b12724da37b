import assert from "node:assert/strict";
import type { Metadata } from "../adapter/mod.ts";
import { Logger } from "../common/log.ts";
import type { Resolver } from "../net/resolver.ts";
import { type CompiledRule, decide, type RuleAction } from "./decide.ts";
import { compileRule } from "./rules/mod.ts";

const logger = new Logger({ disabled: true });
const resolver: Resolver = {
  lookup: (name) => Promise.resolve(name === "intranet.test" ? ["10.1.2.3"] : ["203.0.113.9"]),
};

function rules(...list: (Record<string, unknown> & RuleAction)[]): CompiledRule[] {
  return list.map((r, index) => ({
    index,
    matcher: compileRule(r as never),
    action: r,
    text: `rule ${index}`,
  }));
}

function meta(host: string, port = 443): Metadata {
  return {
    inbound: "in",
    inboundType: "mixed",
    network: "tcp",
    source: { host: "127.0.0.1", port: 5000 },
    destination: { host, port },
  };
}

Deno.test("decide: first final action wins, no match goes to final", async () => {
  const r = rules(
    { domain_suffix: ["a.test"], action: "route", outbound: "A" },
    { port: [443], action: "route", outbound: "B" },
  );
  assert.deepEqual(await decide(meta("x.a.test"), { rules: r, resolver, logger }), {
    kind: "route",
    outbound: "A",
    rule: "rule 0",
  });
  assert.equal((await decide(meta("b.test"), { rules: r, resolver, logger })).kind, "route");
  assert.deepEqual(await decide(meta("b.test", 80), { rules: r, resolver, logger }), {
    kind: "route",
    outbound: undefined,
    rule: "final",
  });
});

Deno.test("decide: sniff sets the domain a later rule matches, once", async () => {
  let calls = 0;
  const r = rules(
    { network: ["tcp"], action: "sniff" },
    { network: ["tcp"], action: "sniff" },
    { domain: ["sniffed.test"], action: "reject", method: "default" },
  );
  const m = meta("192.0.2.1");
  const d = await decide(m, {
    rules: r,
    resolver,
    logger,
    sniff: () => {
      calls++;
      return Promise.resolve({ protocol: "tls", domain: "sniffed.test" });
    },
  });
  assert.equal(calls, 1);
  assert.equal(d.kind, "reject");
  assert.equal(m.protocol, "tls");
  assert.equal(m.destination.host, "192.0.2.1", "no override without override_destination");
});

Deno.test("decide: sniff with override_destination replaces the host", async () => {
  const m = meta("192.0.2.1");
  await decide(m, {
    rules: rules({ network: ["tcp"], action: "sniff", override_destination: true }),
    resolver,
    logger,
    sniff: () => Promise.resolve({ protocol: "http", domain: "host.test" }),
  });
  assert.deepEqual(m.destination, { host: "host.test", port: 443 });
  assert.deepEqual(m.originalDestination, { host: "192.0.2.1", port: 443 });
});

Deno.test("decide: resolve feeds ip_cidr; route-options overrides and goes on", async () => {
  const r = rules(
    { domain_suffix: ["test"], action: "resolve" },
    { ip_cidr: ["10.0.0.0/8"], action: "route-options", override_port: 8443, udp_timeout: 1000 },
    { ip_cidr: ["10.0.0.0/8"], action: "route", outbound: "lan" },
  );
  const m = meta("intranet.test");
  const d = await decide(m, { rules: r, resolver, logger });
  assert.deepEqual(d, { kind: "route", outbound: "lan", rule: "rule 2" });
  assert.deepEqual(m.resolvedAddresses, ["10.1.2.3"]);
  assert.equal(m.destination.port, 8443);
  assert.equal(m.udpTimeoutMs, 1000);
  const other = meta("public.test");
  assert.equal((await decide(other, { rules: r, resolver, logger })).rule, "final");
});
