/**
 * Rule-set matching speed: a 100k-domain set (as a geosite category would be) looked up through
 * the rule_set path, and the load time of a ~10 MB .srs. Geoip (mmdb) is not implemented yet.
 * Run: ./scripts/deno run -A scripts/bench/geo.ts
 */
import { readSrs, writeSrs } from "../../src/route/rule_set/srs.ts";
import { compileRules } from "../../src/route/rule_set/compile.ts";
import type { Metadata } from "../../src/adapter/metadata.ts";

const domains: string[] = [];
for (let i = 0; i < 100_000; i++) domains.push(`host${i}.zone${i % 977}.example${i % 13}.com`);
const match = compileRules([{ domain_suffix: domains }], "bench");
const meta = (host: string): Metadata => ({
  inbound: "",
  inboundType: "",
  network: "tcp",
  source: { host: "0.0.0.0", port: 0 },
  destination: { host, port: 443 },
});
const probes = Array.from(
  { length: 1000 },
  (_, i) =>
    meta(
      i % 2 ? `a.b.host${i * 37}.zone${(i * 37) % 977}.example${(i * 37) % 13}.com` : `miss${i}.nowhere.org`,
    ),
);
const samples: number[] = [];
for (let r = 0; r < 200; r++) {
  const t = performance.now();
  for (const p of probes) match(p);
  samples.push(((performance.now() - t) * 1000) / probes.length);
}
samples.sort((a, b) => a - b);
console.log(`100k-domain suffix set: median ${samples[100].toFixed(3)} µs per lookup`);

const big: string[] = [];
for (let i = 0; big.length < 700_000; i++) {
  big.push(`h${i.toString(36)}x${(i * 7919).toString(36)}.d${i % 5000}.net`);
}
const file = writeSrs({ version: 2, rules: [{ domain_suffix: big }] });
console.log(`.srs of ${(file.length / 1e6).toFixed(1)} MB`);
const loads: number[] = [];
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  compileRules(readSrs(file).rules, "bench");
  loads.push(performance.now() - t);
}
loads.sort((a, b) => a - b);
console.log(`load (decode + compile): median ${loads[1].toFixed(0)} ms`);
