/**
 * Fails when an import goes the wrong way between layers (shared/DESIGN.md), when a protocol
 * imports another protocol, or when modules form a cycle. Run: ./scripts/deno run -A scripts/check_layers.ts
 *
 * Layers, low to high. `tracker` sits with net (below route) rather than with api as DESIGN.md
 * draws it: the router registers every connection in it, and it depends only on adapter.
 */
const LAYERS: Record<string, number> = {
  common: 0,
  config: 1,
  adapter: 2,
  net: 3,
  tls: 3,
  crypto: 3,
  transport: 3,
  tracker: 3,
  platform: 3,
  store: 3,
  netstack: 3,
  protocol: 4,
  group: 4,
  dns: 4,
  route: 4,
  api: 5,
  engine: 6,
  cli: 7,
};
/** The one sanctioned protocol-to-protocol composition: mixed is socks + http (as in sing-box). */
const ALLOWED_PROTOCOL_IMPORTS = new Set(["mixed->socks", "mixed->http"]);

const root = new URL("../", import.meta.url).pathname;
const files: string[] = [];
async function walk(dir: string): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) await walk(p);
    else if (e.name.endsWith(".ts")) files.push(p);
  }
}
await walk(`${root}src`);

const problems: string[] = [];
const graph = new Map<string, string[]>();
const importRe = /^\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|^\s*import\s+"(\.[^"]+)"/gm;
for (const file of files) {
  const text = await Deno.readTextFile(file);
  const rel = file.slice(root.length + 4); // after "src/"
  const [layer, sub] = rel.split("/");
  const edges: string[] = [];
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    const target = new URL(spec, `file://${file}`).pathname;
    if (!target.startsWith(`${root}src/`)) continue;
    const trel = target.slice(root.length + 4);
    const [tlayer, tsub] = trel.split("/");
    edges.push(target);
    if (file.endsWith("_test.ts")) continue; // tests may assemble anything
    const from = LAYERS[layer], to = LAYERS[tlayer];
    if (from === undefined || to === undefined) {
      problems.push(`${rel}: unknown layer "${from === undefined ? layer : tlayer}"`);
    } else if (to > from) {
      problems.push(`${rel}: imports higher layer "${tlayer}" (${trel})`);
    } else if (layer === "protocol" && tlayer === "protocol" && sub !== tsub) {
      if (!ALLOWED_PROTOCOL_IMPORTS.has(`${sub}->${tsub}`)) {
        problems.push(`${rel}: protocol "${sub}" imports protocol "${tsub}"`);
      }
    } else if (layer === "config" && to > LAYERS.config) {
      problems.push(`${rel}: config imports runtime code (${trel})`);
    }
  }
  graph.set(file, edges);
}

// Cycle detection over the module graph (tests excluded).
const state = new Map<string, 1 | 2>();
const stack: string[] = [];
function visit(f: string): void {
  if (f.endsWith("_test.ts")) return;
  const s = state.get(f);
  if (s === 2) return;
  if (s === 1) {
    const cycle = stack.slice(stack.indexOf(f)).concat(f).map((p) => p.slice(root.length));
    problems.push(`import cycle: ${cycle.join(" -> ")}`);
    return;
  }
  state.set(f, 1);
  stack.push(f);
  for (const t of graph.get(f) ?? []) visit(t);
  stack.pop();
  state.set(f, 2);
}
for (const f of graph.keys()) visit(f);

if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`layer check: ${problems.length} problem(s)`);
  Deno.exit(1);
}
console.log(`layer check: ${files.length} files ok`);
