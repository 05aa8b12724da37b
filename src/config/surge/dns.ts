/**
 * DNS and the bypasses of a Surge profile: `dns-server` and `encrypted-dns-server` → DNS servers
 * (encrypted ones answer, plain ones resolve their names, as Surge does), `[Host]` → predefined
 * answers or per-domain servers, `skip-proxy` and `exclude-simple-hostnames` → direct rules placed
 * first, `hijack-dns` → hijack rules.
 */
import { parseServerUrl } from "../clash/dns.ts";
import type { Policies } from "../clash/groups.ts";
import type { Json } from "../links/types.ts";
import type { SurgeConversion } from "./context.ts";
import { list } from "./general.ts";
import { keyValue } from "./line.ts";
import type { Line, Loc } from "./source.ts";

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const isIp = (h: string) => IPV4.test(h) || /^[0-9a-f:]+$/i.test(h) && h.includes(":");
const cidr = (h: string) => (h.includes("/") ? h : h.includes(":") ? `${h}/128` : `${h}/32`);

class Servers {
  readonly #byText = new Map<string, string>();
  constructor(private readonly cv: SurgeConversion, private readonly policies: Policies) {}

  one(text: string, loc: Loc, resolver?: string): string | undefined {
    const known = this.#byText.get(text);
    if (known) return known;
    const path = this.cv.at(loc);
    const server = parseServerUrl(text, path, this.cv, this.policies);
    if (!server) return undefined;
    if (resolver && typeof server.server === "string" && !isIp(server.server)) {
      server.domain_resolver = resolver;
    }
    const tag = this.cv.uniqueTag(text);
    this.cv.push(["dns", "servers"], { ...server, tag }, path);
    this.#byText.set(text, tag);
    return tag;
  }

  /** One tag for several servers: the server, or a race over them. */
  many(items: string[], loc: Loc, name: string, resolver?: string): string | undefined {
    const tags = items.flatMap((t) => this.one(t, loc, resolver) ?? []);
    if (tags.length <= 1) return tags[0];
    const tag = this.cv.uniqueTag(name);
    this.cv.push(["dns", "servers"], { type: "race", tag, servers: tags }, this.cv.at(loc));
    return tag;
  }
}

export function convertDns(general: Line[], hosts: Line[], cv: SurgeConversion, policies: Policies): void {
  const servers = new Servers(cv, policies);
  const plain = list(general, "dns-server");
  const encrypted = list(general, "encrypted-dns-server");
  const plainTag = plain && servers.many(plain.items, plain.loc, "dns-server");
  const encTag = encrypted && servers.many(encrypted.items, encrypted.loc, "encrypted-dns-server", plainTag);
  const final = encTag ?? plainTag;
  if (final) cv.set(["dns", "final"], final, cv.at((encrypted ?? plain)!.loc));
  for (const line of hosts) convertHost(line, cv, servers);
}

function convertHost(line: Line, cv: SurgeConversion, servers: Servers): void {
  const kv = keyValue(line.text);
  if (!kv) return cv.fail(line.loc, `expected "name = address", got "${line.text.slice(0, 60)}"`);
  const [name, value] = kv;
  const cond: Json = name.startsWith("*.") ? { domain_suffix: [name.slice(1)] } : { domain: [name] };
  if (name.slice(name.startsWith("*.") ? 2 : 0).includes("*")) {
    return cv.fail(line.loc, `host pattern "${name}": only a leading "*." wildcard is supported`);
  }
  const path = cv.at(line.loc);
  if (value.startsWith("server:")) {
    const s = value.slice(7).trim();
    const tag = servers.one(s === "system" ? "system" : s, line.loc);
    if (tag) cv.push(["dns", "rules"], { ...cond, server: tag }, path);
    return;
  }
  const addrs = value.split(",").map((s) => s.trim()).filter(Boolean);
  if (!addrs.length || !addrs.every(isIp)) {
    return cv.fail(line.loc, `host "${name}" = "${value}": aliases to another name are not supported`);
  }
  const owner = name.startsWith("*.") ? `${name}.` : `${name}.`;
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

/** Route rules Surge applies before `[Rule]`: hijacked DNS, then skip-proxy and simple hostnames direct. */
export function bypassRules(general: Line[], cv: SurgeConversion, direct: () => string): void {
  const hijack = list(general, "hijack-dns");
  for (const item of hijack?.items ?? []) {
    const m = /^(\*|\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(item);
    if (!m) {
      cv.fail(hijack!.loc, `hijack-dns: expected "address:53" or "*:53", got "${item}"`);
      continue;
    }
    const rule: Json = { port: [Number(m[2])], action: "hijack-dns" };
    if (m[1] !== "*") rule.ip_cidr = [cidr(m[1].replace(/^\[|\]$/g, ""))];
    cv.push(["route", "rules"], rule, cv.at(hijack!.loc));
  }
  const skip = list(general, "skip-proxy");
  if (skip?.items.length) {
    const c: Record<string, string[]> = {};
    for (const item of skip.items) {
      if (isIp(item.split("/")[0])) (c.ip_cidr ??= []).push(cidr(item));
      else if (item.startsWith("*.") && !item.slice(2).includes("*")) {
        (c.domain_suffix ??= []).push(item.slice(1));
      } else if (!item.includes("*")) (c.domain ??= []).push(item);
      else {cv.fail(
          skip.loc,
          `skip-proxy: pattern "${item}" is not supported (use "*.name", a name or a CIDR)`,
        );}
    }
    // Separate rules: a rule's different condition kinds are ANDed, these are alternatives.
    for (const [k, v] of Object.entries(c)) {
      cv.push(["route", "rules"], { [k]: v, outbound: direct() }, cv.at(skip.loc));
    }
  }
  const simple = general.findLast((l) => keyValue(l.text)?.[0].toLowerCase() === "exclude-simple-hostnames");
  if (simple && keyValue(simple.text)![1].toLowerCase() === "true") {
    cv.push(["route", "rules"], { domain_regex: ["^[^.]+$"], outbound: direct() }, cv.at(simple.loc));
  }
}
