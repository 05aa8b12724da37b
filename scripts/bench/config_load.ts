/**
 * Configuration load benchmark (not a test). Run from the repository root:
 *
 *   ./scripts/deno run -A scripts/bench/config_load.ts
 *
 * Generates a Clash file with 5,000 proxies, 200 groups and 20,000 rules, loads and validates it
 * (YAML parse, conversion, native schema and cross-reference checks), and loads the native JSON
 * of the same configuration in the same run as the peer. Target (issue #5): the Clash file in
 * under 1 s. Median of RUNS loads after one warm-up each. Exit code 1 on FAIL.
 */
import { checkConfig, convertConfig } from "../../src/config/mod.ts";

const PROXIES = 5_000, GROUPS = 200, RULES = 20_000, RUNS = 5, TARGET_MS = 1000;
const CIPHERS = ["aes-128-gcm", "aes-256-gcm", "chacha20-ietf-poly1305"];

function clashText(): string {
  const lines: string[] = ["mixed-port: 7890", "mode: rule", "log-level: info", "proxies:"];
  for (let i = 0; i < PROXIES; i++) {
    const host = `n${i}.example.net`;
    switch (i % 4) {
      case 0:
        lines.push(
          `  - {name: ss-${i}, type: ss, server: ${host}, port: ${10000 + i}, cipher: ${
            CIPHERS[i % 3]
          }, password: p${i}, udp: true}`,
        );
        break;
      case 1:
        lines.push(
          `  - {name: vm-${i}, type: vmess, server: ${host}, port: 443, uuid: 6f1b2f3c-4a5b-4c6d-8e9f-${
            String(i).padStart(12, "0")
          }, alterId: 0, cipher: auto, tls: true, servername: ${host}, network: ws, ws-opts: {path: /ws, headers: {Host: ${host}}}}`,
        );
        break;
      case 2:
        lines.push(
          `  - {name: tj-${i}, type: trojan, server: ${host}, port: 443, password: p${i}, sni: ${host}, udp: true}`,
        );
        break;
      default:
        lines.push(
          `  - {name: vl-${i}, type: vless, server: ${host}, port: 443, uuid: 7f1b2f3c-4a5b-4c6d-8e9f-${
            String(i).padStart(12, "0")
          }, tls: true, servername: ${host}, network: grpc, grpc-opts: {grpc-service-name: gun}}`,
        );
    }
  }
  const names = (i: number) => ["ss", "vm", "tj", "vl"][i % 4] + `-${i}`;
  lines.push("proxy-groups:");
  for (let g = 0; g < GROUPS; g++) {
    const members = Array.from({ length: 25 }, (_, k) => names((g * 25 + k) % PROXIES));
    const type = ["select", "url-test", "fallback", "load-balance"][g % 4];
    lines.push(
      `  - {name: G${g}, type: ${type}, proxies: [${
        members.join(", ")
      }], url: "https://cp.cloudflare.com", interval: 300}`,
    );
  }
  lines.push("rules:");
  for (let r = 0; r < RULES; r++) {
    const target = `G${r % GROUPS}`;
    switch (r % 5) {
      case 0:
        lines.push(`  - DOMAIN-SUFFIX,site${r}.example.com,${target}`);
        break;
      case 1:
        lines.push(`  - DOMAIN,host${r}.example.org,${target}`);
        break;
      case 2:
        lines.push(`  - DOMAIN-KEYWORD,kw${r},${target}`);
        break;
      case 3:
        lines.push(`  - IP-CIDR,10.${(r >> 8) & 255}.${r & 255}.0/24,${target},no-resolve`);
        break;
      default:
        lines.push(`  - DST-PORT,${1000 + (r % 60000)},${target}`);
    }
  }
  lines.push("  - MATCH,G0");
  return lines.join("\n") + "\n";
}

function timeLoad(text: string, file: string): number {
  checkConfig(text, { file }); // warm-up: JIT and module state
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = checkConfig(text, { file });
    times.push(performance.now() - t);
    if (r.errors.length) throw new Error(`${file}: ${r.errors[0].message}`);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

const yaml = clashText();
const json = convertConfig(yaml, { file: "big.yaml" });
const yamlMs = timeLoad(yaml, "big.yaml");
const jsonMs = timeLoad(json, "big.json");
console.log(
  `Clash file: ${(yaml.length / 1e6).toFixed(1)} MB, ${PROXIES} proxies, ${GROUPS} groups, ${RULES} rules`,
);
console.log(`native JSON of the same model: ${(json.length / 1e6).toFixed(1)} MB`);
console.log(
  `load + validate, median of ${RUNS}: Clash ${yamlMs.toFixed(0)} ms, native JSON ${jsonMs.toFixed(0)} ms`,
);
console.log(`ratio Clash/JSON: ${(yamlMs / jsonMs).toFixed(2)}x`);
const ok = yamlMs < TARGET_MS;
console.log(`target: Clash under ${TARGET_MS} ms: ${ok ? "PASS" : "FAIL"}`);
if (!ok) Deno.exit(1);
