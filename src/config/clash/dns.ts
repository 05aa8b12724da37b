/**
 * Clash `dns` (and `hosts`) → native DNS servers and rules. Server URLs keep their text as the
 * tag, so logs name servers the way the user wrote them.
 */
import { asBool, asList, asString, Conversion, isRecord } from "./conversion.ts";
import { domainConditions } from "./domain_pattern.ts";
import type { Policies } from "./groups.ts";
import type { YamlPath } from "./yaml_source.ts";

type Json = Record<string, unknown>;

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const isIp = (h: string) => IPV4.test(h) || h.includes(":");

/** Keys of `dns` ignored with a warning: they tune caching or timing, not where answers come from. */
const DNS_WARN = new Set([
  "cache-algorithm",
  "prefer-h3",
  "ipv6-timeout",
  "use-system-hosts",
  "direct-nameserver-follow-policy",
]);
const DNS_READ = new Set([
  "enable",
  "listen",
  "ipv6",
  "enhanced-mode",
  "fake-ip-range",
  "fake-ip-range6",
  "fake-ip-filter",
  "fake-ip-filter-mode",
  "default-nameserver",
  "nameserver",
  "fallback",
  "fallback-filter",
  "nameserver-policy",
  "proxy-server-nameserver",
  "direct-nameserver",
  "respect-rules",
  "use-hosts",
]);

class Servers {
  private readonly byUrl = new Map<string, string>();
  constructor(private readonly cv: Conversion, private readonly policies: Policies) {}

  /** The tag of the server a URL stands for (created once per URL). */
  url(text: string, path: YamlPath, resolver?: () => string | undefined): string | undefined {
    const known = this.byUrl.get(text);
    if (known) return known;
    const server = parseServerUrl(text, path, this.cv, this.policies);
    if (!server) return undefined;
    const host = server.server as string | undefined;
    if (host && !isIp(host)) {
      const r = resolver?.();
      if (r) server.domain_resolver = r;
    }
    const tag = this.cv.uniqueTag(text);
    this.cv.push(["dns", "servers"], { ...server, tag }, path);
    this.byUrl.set(text, tag);
    return tag;
  }

  /** One tag for a list of URLs: the server itself, or a `race` over them (mihomo asks all at once). */
  list(urls: unknown, path: YamlPath, name: string, resolver?: () => string | undefined): string | undefined {
    const tags = asList(urls).flatMap((u, i) => {
      const t = asString(u);
      const tag = t ? this.url(t.trim(), [...path, i], resolver) : undefined;
      if (!t) this.cv.error([...path, i], "expected a server address");
      return tag ? [tag] : [];
    });
    if (tags.length <= 1) return tags[0];
    const tag = this.cv.uniqueTag(name);
    this.cv.push(["dns", "servers"], { type: "race", tag, servers: tags }, path);
    return tag;
  }
}

/** One server URL: `1.1.1.1`, `tcp://`, `tls://`, `https://`, `quic://`, `system`, with `#proxy` or `#k=v`. */
export function parseServerUrl(
  text: string,
  path: YamlPath,
  cv: Conversion,
  policies: Policies,
): Json | undefined {
  const [main, fragment] = text.split("#", 2);
  if (/^system(:\/\/)?$/i.test(main)) return { type: "local" };
  if (/^dhcp:\/\//i.test(main)) {
    cv.error(path, `"${text}": DHCP DNS servers are not supported`);
    return undefined;
  }
  const m = /^(?:([a-z0-9]+):\/\/)?(\[[^\]]+\]|[^/:]+)(?::(\d+))?(\/.*)?$/i.exec(main.trim());
  const scheme = m?.[1]?.toLowerCase() ?? "udp";
  const types: Record<string, string> = {
    udp: "udp",
    tcp: "tcp",
    tls: "tls",
    https: "https",
    quic: "quic",
    h3: "h3",
  };
  if (!m || !types[scheme]) {
    cv.error(path, `"${text}": unsupported DNS server address`);
    return undefined;
  }
  const server: Json = { type: types[scheme], server: m[2].replace(/^\[|\]$/g, "") };
  if (m[3]) server.server_port = Number(m[3]);
  if (m[4] && (scheme === "https" || scheme === "h3")) server.path = m[4];
  if (fragment) {
    if (fragment.includes("=")) {
      for (const [k, v] of new URLSearchParams(fragment)) {
        if (k === "h3" && v === "true" && server.type === "https") server.type = "h3";
        else if (k === "skip-cert-verify" && v === "true") {
          cv.error(path, `"${text}": skip-cert-verify is not supported for DNS servers`);
          return undefined;
        } else cv.warn(path, `"${text}": option "${k}" is ignored`);
      }
    } else if (fragment !== "DIRECT") {
      const detour = policies.member(decodeURIComponent(fragment), path);
      if (detour === undefined) return undefined;
      server.detour = detour;
    }
  }
  return server;
}

export function convertDns(c: Json, cv: Conversion, policies: Policies): void {
  const d = c.dns;
  const hosts = isRecord(c.hosts) ? c.hosts : undefined;
  const useHosts = !isRecord(d) || asBool(d["use-hosts"]) !== false;
  if (hosts && useHosts) convertHosts(hosts, cv);
  if (!isRecord(d) || asBool(d.enable) === false) return;
  for (const key of Object.keys(d)) {
    if (DNS_WARN.has(key)) cv.warn(["dns", key], `"${key}" is ignored`);
    else if (!DNS_READ.has(key)) cv.error(["dns", key], `unknown dns key "${key}"`);
  }
  if (asBool(d["respect-rules"])) {
    cv.error(
      ["dns", "respect-rules"],
      "respect-rules is not supported: give each server a proxy with #name instead",
    );
  }
  if (asBool(d.ipv6) === false) cv.set(["dns", "strategy"], "ipv4_only", ["dns", "ipv6"]);
  const servers = new Servers(cv, policies);
  const bootstrap = servers.list(
    d["default-nameserver"],
    ["dns", "default-nameserver"],
    "default-nameserver",
  );
  const resolver = () => bootstrap;
  const main = servers.list(d.nameserver, ["dns", "nameserver"], "nameserver", resolver);
  if (!main) {
    if (asList(d.nameserver).length === 0) cv.error(["dns"], 'dns needs "nameserver"');
    return;
  }
  const fallback = servers.list(d.fallback, ["dns", "fallback"], "fallback", resolver);
  const proxyResolver = servers.list(
    d["proxy-server-nameserver"],
    ["dns", "proxy-server-nameserver"],
    "proxy-server-nameserver",
    resolver,
  );
  if (proxyResolver) {
    cv.set(["route", "default_domain_resolver"], proxyResolver, ["dns", "proxy-server-nameserver"]);
  }
  const direct = servers.list(
    d["direct-nameserver"],
    ["dns", "direct-nameserver"],
    "direct-nameserver",
    resolver,
  );
  if (direct) {
    cv.warn(
      ["dns", "direct-nameserver"],
      "direct-nameserver is used only as a server; DIRECT lookups use the rules",
    );
  }

  const policy = d["nameserver-policy"];
  if (isRecord(policy)) {
    for (const [pattern, urls] of Object.entries(policy)) {
      const path: YamlPath = ["dns", "nameserver-policy", pattern];
      const tag = servers.list(urls, path, `policy:${pattern}`, resolver);
      if (!tag) continue;
      for (const cond of domainConditions(pattern.split(/,(?![^(]*\))/).map((s) => s.trim()))) {
        cv.push(["dns", "rules"], { ...cond, server: tag }, path);
      }
    }
  }
  if (asString(d["enhanced-mode"]) === "fake-ip") convertFakeIp(d, cv, main);
  if (fallback) {
    const filter = isRecord(d["fallback-filter"]) ? d["fallback-filter"] : {};
    const fpath: YamlPath = ["dns", "fallback-filter"];
    const domains = asList(filter.domain).map(String);
    for (const cond of domainConditions(domains)) {
      cv.push(["dns", "rules"], { ...cond, server: fallback }, fpath);
    }
    const cidrs = asList(filter.ipcidr).map(String);
    if (cidrs.length) {
      cv.push(["dns", "rules"], { action: "evaluate", server: main, query_type: ["A", "AAAA"] }, fpath);
      cv.push(["dns", "rules"], { match_response: true, ip_cidr: cidrs, server: fallback }, fpath);
    }
    if (filter.geoip !== false) {
      cv.warn(
        fpath,
        "fallback-filter geoip is not applied: answers from nameserver are kept unless ipcidr or domain sends the query to fallback",
      );
    }
  }
  cv.set(["dns", "final"], main, ["dns", "nameserver"]);
  const listen = asString(d.listen);
  if (listen) dnsListener(listen, cv);
}

function convertFakeIp(d: Json, cv: Conversion, real: string): void {
  const fake: Json = {
    type: "fakeip",
    tag: cv.uniqueTag("fakeip"),
    inet4_range: asString(d["fake-ip-range"]) ?? "198.18.0.1/16",
  };
  const v6 = asString(d["fake-ip-range6"]);
  if (v6) fake.inet6_range = v6;
  cv.push(["dns", "servers"], fake, ["dns", "enhanced-mode"]);
  const filter = asList(d["fake-ip-filter"]).map(String);
  const whitelist = asString(d["fake-ip-filter-mode"]) === "whitelist";
  const fpath: YamlPath = ["dns", "fake-ip-filter"];
  if (whitelist) {
    for (const cond of domainConditions(filter)) {
      cv.push(["dns", "rules"], { ...cond, query_type: ["A", "AAAA"], server: fake.tag }, fpath);
    }
  } else {
    for (const cond of domainConditions(filter)) cv.push(["dns", "rules"], { ...cond, server: real }, fpath);
    cv.push(["dns", "rules"], { query_type: ["A", "AAAA"], server: fake.tag }, ["dns", "enhanced-mode"]);
  }
}

/**
 * `hosts` → DNS rules with the `predefined` action: A and AAAA queries each get their family's
 * addresses (an empty answer when the entry has none, as mihomo), and `+.name` also answers
 * every subdomain through a `*.name.` record.
 */
function convertHosts(hosts: Json, cv: Conversion): void {
  for (const [name, value] of Object.entries(hosts)) {
    const path: YamlPath = ["hosts", name];
    const addrs = asList(value).map(String);
    if (!addrs.every((a) => isIp(a))) {
      cv.warn(path, "hosts entries that name another domain are ignored");
      continue;
    }
    if (name.includes("*") || (name.startsWith(".") && !name.startsWith("+."))) {
      cv.warn(path, "wildcard hosts entries other than +. are ignored");
      continue;
    }
    const plain = name.replace(/^\+\./, "");
    const targets: [Json, string][] = [[{ domain: [plain] }, `${plain}.`]];
    if (name.startsWith("+.")) targets.push([{ domain_suffix: [`.${plain}`] }, `*.${plain}.`]);
    for (const [cond, owner] of targets) {
      for (
        const [qtype, family] of [["A", addrs.filter((a) => !a.includes(":"))], [
          "AAAA",
          addrs.filter((a) => a.includes(":")),
        ]] as const
      ) {
        const rule: Json = { ...cond, query_type: [qtype], action: "predefined" };
        if (family.length) rule.answer = family.map((ip) => `${owner} IN ${qtype} ${ip}`);
        cv.push(["dns", "rules"], rule, path);
      }
    }
  }
}

/** `dns.listen` becomes a direct inbound whose traffic is answered by the DNS subsystem. */
function dnsListener(listen: string, cv: Conversion): void {
  const m = /^(\[[^\]]+\]|[^:]*):(\d+)$/.exec(listen.trim());
  if (!m) return cv.error(["dns", "listen"], `expected "address:port", got "${listen}"`);
  const tag = cv.uniqueInboundTag("dns-in");
  cv.push(["inbounds"], {
    type: "direct",
    tag,
    listen: m[1].replace(/^\[|\]$/g, "") || "0.0.0.0",
    listen_port: Number(m[2]),
  }, ["dns", "listen"]);
  cv.push(["route", "rules"], { inbound: [tag], action: "hijack-dns" }, ["dns", "listen"]);
}
