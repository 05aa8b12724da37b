/**
 * AEAD benchmark (not a test): the OpenSSL-through-FFI provider against node:crypto, in one
 * process, for every cipher. Run from the repository root:
 *
 *   ./scripts/deno run -A scripts/bench/crypto.ts [--runs 3] [--ms 400] [--cipher aes-128-gcm]
 *     [--no-openssl-speed]
 *
 *  1. Bulk: seal then open of 16 KiB chunks (shadowsocks' largest frame); Gbit/s of plaintext
 *     that went through both, and seal alone for the OpenSSL provider.
 *  2. Small: seal then open of 64-byte messages (length headers, handshakes); operations/s.
 *  3. One-shot: create, seal 100 bytes, dispose (a UDP packet, trying a user's key); per second.
 *  4. Single-block AES-128 (vmess auth IDs, tried once per user per connection): blocks/s.
 *  5. `openssl speed -evp CIPHER -bytes 16384` (encrypt only, C, no FFI) as the ceiling, once per
 *     cipher, against our seal-only figure.
 * The node provider's aes-192-gcm is @noble/ciphers (Deno's node:crypto lacks that cipher).
 * Runs are interleaved (OpenSSL then node, the order flipping each run), each case lasts --ms,
 * and the ratio OpenSSL/node is taken per run (the two back to back) and reported as the median:
 * the machine is shared, so absolute figures are noisy and ratios are what to compare.
 */
import { parseArgs } from "node:util";
import { AEAD_KEY_SIZE, type AeadName, type AeadProvider } from "../../src/crypto/mod.ts";
import { getNodeAeadProvider, getOpensslAeadProvider } from "../../src/crypto/mod.ts";
import { nodeAesBlock, opensslAesBlockFactory } from "../../src/crypto/aes_block.ts";
import { loadLibcrypto } from "../../src/crypto/libcrypto.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "3" },
    ms: { type: "string", default: "400" },
    cipher: { type: "string", multiple: true },
    "no-openssl-speed": { type: "boolean", default: false },
  },
});
const RUNS = Number(args.values.runs);
const MS = Number(args.values.ms);
const CIPHERS =
  (args.values.cipher ?? ["aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-192-gcm"]) as AeadName[];
const BULK = 16 * 1024;
const SMALL = 64;

const openssl = getOpensslAeadProvider();
if (!openssl) {
  throw new Error("OpenSSL provider did not load: run with -A (needs --allow-ffi) and libcrypto 3");
}
const node = getNodeAeadProvider();

/** Runs `op` (which handles `bytes` of plaintext) for about MS milliseconds; returns ops/s. */
function measure(op: () => void): number {
  for (let i = 0; i < 200; i++) op(); // warm up (JIT, fast calls)
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < MS) {
    for (let i = 0; i < 64; i++) op();
    n += 64;
    t = performance.now();
  }
  return n / ((t - t0) / 1000);
}

interface Case {
  bulkGbps: number;
  sealGbps: number;
  smallOps: number;
  oneShotOps: number;
}

function runCase(provider: AeadProvider, name: AeadName): Case | null {
  const key = crypto.getRandomValues(new Uint8Array(AEAD_KEY_SIZE[name]));
  let aead;
  try {
    aead = provider.create(name, key);
  } catch {
    return null; // e.g. node:crypto in Deno has no aes-192-gcm
  }
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const result: Case = { bulkGbps: 0, sealGbps: 0, smallOps: 0, oneShotOps: 0 };
  for (const [size, field] of [[BULK, "bulk"], [SMALL, "small"]] as const) {
    const pt = crypto.getRandomValues(new Uint8Array(size));
    const ct = new Uint8Array(size + 16);
    const back = new Uint8Array(size);
    const ops = measure(() => {
      aead.seal(nonce, pt, ct);
      if (aead.open(nonce, ct, back) !== size) throw new Error(`${provider.id} ${name}: open failed`);
    });
    if (field === "bulk") {
      result.bulkGbps = ops * size * 8 / 1e9;
      result.sealGbps = measure(() => aead.seal(nonce, pt, ct)) * size * 8 / 1e9;
    } else result.smallOps = ops;
  }
  aead.dispose();
  const pt = new Uint8Array(100), ct = new Uint8Array(116);
  result.oneShotOps = measure(() => {
    const a = provider.create(name, key);
    a.seal(nonce, pt, ct);
    a.dispose();
  });
  return result;
}

async function opensslSpeed(name: AeadName): Promise<number | null> {
  const evp = name === "chacha20-poly1305" ? "chacha20-poly1305" : name;
  try {
    const out = await new Deno.Command("openssl", {
      args: ["speed", "-evp", evp, "-bytes", String(BULK), "-seconds", "1", "-mr"],
      stdout: "piped",
      stderr: "null",
    }).output();
    // -mr prints "+F:<n>:<name>:<bytes/s>" for each size.
    const line = new TextDecoder().decode(out.stdout).split("\n").find((l) => l.startsWith("+F:"));
    return line ? Number(line.split(":").at(-1)) * 8 / 1e9 : null;
  } catch {
    return null;
  }
}

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const f = (x: number, d = 2) => Number.isFinite(x) ? x.toFixed(d) : "n/a";

console.log(`providers: ${openssl.id} vs ${node.id}; ${RUNS} runs × ${MS} ms per case`);
for (const name of CIPHERS) {
  const o: Case[] = [], n: (Case | null)[] = [];
  for (let r = 0; r < RUNS; r++) {
    if (r % 2 === 0) {
      o.push(runCase(openssl, name)!);
      n.push(runCase(node, name));
    } else {
      n.push(runCase(node, name));
      o.push(runCase(openssl, name)!);
    }
  }
  const ratio = (k: keyof Case) => median(o.map((c, i) => c[k] / (n[i]?.[k] ?? NaN)));
  const med = (cs: (Case | null)[], k: keyof Case) => median(cs.map((c) => c?.[k] ?? NaN));
  console.log(`\n${name}`);
  console.log(
    `  16 KiB seal+open: openssl ${f(med(o, "bulkGbps"))} Gbit/s, node ${f(med(n, "bulkGbps"))} Gbit/s, ` +
      `ratio ${f(ratio("bulkGbps"), 1)}×`,
  );
  console.log(
    `  64 B seal+open:   openssl ${f(med(o, "smallOps") / 1e3, 0)} k op/s, node ${
      f(med(n, "smallOps") / 1e3, 0)
    } k op/s, ` +
      `ratio ${f(ratio("smallOps"), 1)}×`,
  );
  console.log(
    `  one-shot (create, seal 100 B, dispose): openssl ${f(med(o, "oneShotOps") / 1e3, 0)} k/s, ` +
      `node ${f(med(n, "oneShotOps") / 1e3, 0)} k/s, ratio ${f(ratio("oneShotOps"), 1)}×`,
  );
  if (!args.values["no-openssl-speed"]) {
    const ceiling = await opensslSpeed(name);
    const seal = med(o, "sealGbps");
    console.log(
      `  16 KiB seal only: openssl-ffi ${f(seal)} Gbit/s; \`openssl speed -evp ${name}\` ${
        f(ceiling ?? NaN)
      } Gbit/s, ` +
        `ratio ${f(seal / (ceiling ?? NaN))}`,
    );
  }
}

{
  const key = crypto.getRandomValues(new Uint8Array(16));
  const src = crypto.getRandomValues(new Uint8Array(16)), dst = new Uint8Array(16);
  const o = opensslAesBlockFactory(loadLibcrypto()!)(key), n = nodeAesBlock(key);
  const ratios: number[] = [], os: number[] = [], ns: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const pair = r % 2 === 0
      ? [measure(() => o.encrypt(src, dst)), measure(() => n.encrypt(src, dst))]
      : [measure(() => n.encrypt(src, dst)), measure(() => o.encrypt(src, dst))].reverse();
    os.push(pair[0]), ns.push(pair[1]), ratios.push(pair[0] / pair[1]);
  }
  o.dispose();
  console.log(
    `\naes-128 single block: openssl ${f(median(os) / 1e6)} M/s, node ${f(median(ns) / 1e6)} M/s, ` +
      `ratio ${f(median(ratios), 1)}×`,
  );
}
