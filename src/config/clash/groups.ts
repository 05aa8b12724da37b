/**
 * Clash `proxy-groups` → native group outbounds, and policy names (DIRECT, REJECT, groups,
 * proxies) → outbound tags. `relay` becomes a detour chain over copies of its members.
 */
import { asBool, asInt, asList, asString, Conversion, isRecord } from "./conversion.ts";
import type { PolicyTarget } from "./rules.ts";
import type { YamlPath } from "./yaml_source.ts";

type Json = Record<string, unknown>;

const GROUP_TYPES: Record<string, string> = {
  select: "selector",
  "url-test": "urltest",
  fallback: "fallback",
  "load-balance": "load-balance",
  smart: "smart",
};
/** Keys read from a group; others get a warning (display-only) or an error. */
const DISPLAY_ONLY = new Set(["hidden", "icon", "expected-status", "max-failed-times", "disable-udp"]);
const READ = new Set([
  "name",
  "type",
  "proxies",
  "use",
  "url",
  "interval",
  "tolerance",
  "lazy",
  "timeout",
  "filter",
  "exclude-filter",
  "exclude-type",
  "include-all",
  "include-all-proxies",
  "include-all-providers",
  "strategy",
]);

export class Policies {
  readonly groups = new Set<string>();
  private direct?: string;
  private block?: string;
  private readonly proxySet: ReadonlySet<string>;

  constructor(
    private readonly cv: Conversion,
    private readonly proxies: readonly string[],
    private readonly providers: readonly string[],
  ) {
    this.proxySet = new Set(proxies);
  }

  /** The outbound tag a member name stands for, creating DIRECT/REJECT outbounds on first use. */
  member(name: string, path: YamlPath): string | undefined {
    switch (name) {
      case "DIRECT":
        return this.directTag();
      case "REJECT":
      case "REJECT-DROP":
        return this.blockTag();
      case "PASS":
      case "COMPATIBLE":
        this.cv.error(path, `policy "${name}" is not supported`);
        return undefined;
    }
    if (this.proxySet.has(name) || this.groups.has(name)) return name;
    this.cv.error(path, `unknown proxy or group "${name}"`);
    return undefined;
  }

  /** What a rule target becomes. */
  target(name: string, path: YamlPath): PolicyTarget | undefined {
    if (name === "REJECT") return { reject: "default" };
    if (name === "REJECT-DROP") return { reject: "drop" };
    const tag = this.member(name, path);
    return tag === undefined ? undefined : { outbound: tag };
  }

  directTag(): string {
    if (!this.direct) {
      this.direct = this.cv.tags.has("DIRECT")
        ? this.cv.uniqueTag("DIRECT")
        : (this.cv.tags.add("DIRECT"), "DIRECT");
      this.cv.push(["outbounds"], { type: "direct", tag: this.direct }, []);
    }
    return this.direct;
  }

  private blockTag(): string {
    if (!this.block) {
      this.block = this.cv.tags.has("REJECT")
        ? this.cv.uniqueTag("REJECT")
        : (this.cv.tags.add("REJECT"), "REJECT");
      this.cv.push(["outbounds"], { type: "block", tag: this.block }, []);
    }
    return this.block;
  }

  allProxies(): readonly string[] {
    return this.proxies;
  }

  allProviders(): readonly string[] {
    return this.providers;
  }
}

function regexList(v: unknown): RegExp[] {
  return asList(v).flatMap((x) => {
    const s = asString(x);
    // mihomo splits `filter` on backquotes into several expressions.
    return s ? s.split("`").filter(Boolean).map((p) => new RegExp(p)) : [];
  });
}

export function convertGroups(c: Json, cv: Conversion, policies: Policies): void {
  const list = asList(c["proxy-groups"]);
  // Names first: groups may name groups defined later.
  list.forEach((g, i) => {
    const name = isRecord(g) ? asString(g.name) : undefined;
    if (!name) return;
    if (cv.tags.has(name) || policies.groups.has(name)) {
      cv.error(["proxy-groups", i, "name"], `duplicate name "${name}" (a proxy or group already has it)`);
    } else policies.groups.add(name);
  });
  list.forEach((g, i) => {
    const path: YamlPath = ["proxy-groups", i];
    if (!isRecord(g)) return cv.error(path, "expected a group mapping");
    const name = asString(g.name);
    if (!name) return cv.error(path, 'missing "name"');
    const kind = asString(g.type)?.toLowerCase();
    if (!kind) return cv.error([...path, "type"], 'missing "type"');
    for (const key of Object.keys(g)) {
      if (DISPLAY_ONLY.has(key)) cv.warn([...path, key], `"${key}" is ignored`);
      else if (!READ.has(key)) cv.error([...path, key], `unknown group key "${key}"`);
    }
    let filters: RegExp[], excludes: RegExp[];
    try {
      filters = regexList(g.filter);
      excludes = regexList(g["exclude-filter"]);
    } catch (e) {
      return cv.error([...path, "filter"], `invalid regular expression: ${(e as Error).message}`);
    }
    const keep = (n: string) =>
      (!filters.length || filters.some((r) => r.test(n))) && !excludes.some((r) => r.test(n));
    const members: string[] = [];
    asList(g.proxies).forEach((m, n) => {
      const tag = policies.member(String(m), [...path, "proxies", n]);
      if (tag !== undefined) members.push(tag);
    });
    if (asBool(g["include-all"]) || asBool(g["include-all-proxies"])) {
      members.push(...policies.allProxies().filter((p) => keep(p) && !members.includes(p)));
    }
    const providers = asList(g.use).map(String);
    if (asBool(g["include-all"]) || asBool(g["include-all-providers"])) {
      providers.push(...policies.allProviders().filter((p) => !providers.includes(p)));
    }
    providers.forEach((p, n) => {
      if (!policies.allProviders().includes(p)) {
        cv.error([...path, "use", n], `unknown proxy provider "${p}"`);
      }
    });
    if (kind === "relay") return relay(g, name, members, path, cv);
    const type = GROUP_TYPES[kind];
    if (!type) return cv.error([...path, "type"], `unknown group type "${kind}"`);
    if (members.length === 0 && providers.length === 0) {
      return cv.error(path, `group "${name}" has no members`);
    }
    const out: Json = { type, tag: name, outbounds: members };
    if (providers.length) out.providers = providers;
    if (g.filter !== undefined && providers.length) out.filter = asList(g.filter).map(String);
    if (g["exclude-filter"] !== undefined && providers.length) {
      out.exclude = asList(g["exclude-filter"]).map(String);
    }
    if (type !== "selector") {
      const url = asString(g.url);
      if (url) out.url = url;
      const interval = asInt(g.interval);
      if (interval) out.interval = `${interval}s`;
      const timeout = asInt(g.timeout);
      if (timeout) out.timeout = `${timeout}ms`;
      const lazy = asBool(g.lazy);
      if (lazy !== undefined) out.lazy = lazy;
      if (type === "urltest") {
        const tolerance = asInt(g.tolerance);
        if (tolerance !== undefined) out.tolerance = tolerance;
      }
      if (type === "load-balance") {
        const strategy = asString(g.strategy);
        if (strategy) out.strategy = strategy;
      }
    }
    cv.tags.add(name);
    cv.push(["outbounds"], out, path, {
      outbounds: "proxies",
      providers: "use",
      type: "type",
      strategy: "strategy",
    });
  });
}

/**
 * `relay` [A, B, C]: the client reaches C through B through A. Members are copied so their own
 * detours stay untouched: the group's tag is C's copy, which detours through B's copy, and so on.
 */
function relay(g: Json, name: string, members: string[], path: YamlPath, cv: Conversion): void {
  if (members.length === 0) return cv.error(path, `relay "${name}" has no members`);
  const outbounds = (cv.doc.outbounds ?? []) as Json[];
  let previous: string | undefined;
  members.forEach((m, n) => {
    const last = n === members.length - 1;
    const original = outbounds.find((o) => o.tag === m);
    if (!original || ["selector", "urltest", "fallback", "load-balance"].includes(String(original.type))) {
      if (last) return cv.error([...path, "proxies", n], "a relay must end with a proxy, not a group");
      previous = m; // a group in the middle is dialled through by tag
      return;
    }
    const tag = last ? name : cv.uniqueTag(`${name}/${m}`);
    const copy: Json = { ...original, tag };
    if (previous) copy.detour = previous;
    else delete copy.detour;
    cv.push(["outbounds"], copy, [...path, "proxies", n]);
    previous = tag;
  });
  cv.tags.add(name);
  void g;
}
