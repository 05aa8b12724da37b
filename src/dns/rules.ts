/**
 * DNS rules compiled for the router: the route-rule matchers (src/route/rules) for query-side
 * conditions, plus DNS-only ones: `query_type`, `ip_version` (from the query type), and the
 * response conditions that read an earlier `evaluate` response picked by `match_response`
 * (`ip_cidr`, `ip_is_private`, `ip_accept_any`, `response_rcode`, `response_answer`/`ns`/`extra`,
 * all over every address with `ip_match_all`). Actions and their options are checked here too.
 */
import type { Metadata } from "../adapter/metadata.ts";
import { CidrSetBuilder } from "../common/cidr_set.ts";
import { ConfigError } from "../common/errors.ts";
import { type IpVersion, isPrivateWords, parseIpInto } from "../common/ip.ts";
import type { DnsRule } from "../config/model/dns_rule.ts";
import {
  compileRule,
  type ConditionDef,
  type Predicate,
  ROUTE_CONDITIONS,
  type RuleInput,
} from "../route/rules/mod.ts";
import { type Cidr } from "../common/ip.ts";
import { parseClientSubnet, queryTypeNumber, TYPE } from "./message.ts";
import { compilePredefined, parseRcode, type Predefined } from "./predefined.ts";
import { ResponseView } from "./response_view.ts";

/** `match_response: true`: the latest `evaluate` response before the rule. */
export const LATEST = "";

/** What DNS conditions see: the connection's metadata with the query name as destination. */
export interface DnsMatchMeta extends Metadata {
  dnsQueryType: number;
  /** Responses of earlier `evaluate` rules by tag (LATEST for the latest); undefined when failed. */
  dnsResponses: ReadonlyMap<string, ResponseView | undefined>;
}

const dns = (m: Metadata) => m as DnsMatchMeta;

function refOf(rule: RuleInput): string | undefined {
  const v = (rule as { match_response?: boolean | string }).match_response;
  return v === true ? LATEST : typeof v === "string" && v !== "" ? v : undefined;
}

function responseGetter(
  rule: RuleInput,
  field: string,
  path: string,
): (m: Metadata) => ResponseView | undefined {
  const ref = refOf(rule);
  if (ref === undefined) {
    throw new ConfigError(
      `${path}/${field}`,
      `"${field}" needs "match_response" to name the response it looks at`,
    );
  }
  return (m) => dns(m).dnsResponses.get(ref);
}

function addressCondition(
  field: string,
  test: (version: IpVersion, words: Uint32Array) => boolean,
): (rule: RuleInput, path: string) => Predicate {
  return (rule, path) => {
    const get = responseGetter(rule, field, path);
    const all = (rule as { ip_match_all?: boolean }).ip_match_all === true;
    const w = new Uint32Array(4);
    return (m) => {
      const addresses = get(m)?.addresses ?? [];
      if (addresses.length === 0) return false;
      const one = (a: string) => {
        const v = parseIpInto(a, w);
        return v !== 0 && test(v, w);
      };
      return all ? addresses.every(one) : addresses.some(one);
    };
  };
}

function def(
  fields: string[],
  group: ConditionDef["group"],
  make: (rule: RuleInput, path: string) => Predicate,
): ConditionDef {
  return { fields, group, compile: (rule, ctx) => make(rule, ctx.path) };
}

const recordsCondition = (field: "response_answer" | "response_ns" | "response_extra") =>
  def([field], "item", (rule, path) => {
    const get = responseGetter(rule, field, path);
    const wanted = ResponseView.compileRecords((rule as Record<string, unknown>)[field], `${path}/${field}`);
    const section = field === "response_answer" ? "answer" : field === "response_ns" ? "ns" : "extra";
    return (m) => {
      const have = get(m)?.recordKeys(section);
      return have !== undefined && wanted.every((k) => have.has(k));
    };
  });

const DNS_ONLY: ConditionDef[] = [
  def(["query_type"], "item", (rule, path) => {
    const raw = (rule as { query_type?: (string | number)[] }).query_type ?? [];
    const set = new Set(raw.map((t, i) => {
      const n = typeof t === "number" ? t : queryTypeNumber(t);
      if (n === undefined) throw new ConfigError(`${path}/query_type/${i}`, `unknown query type "${t}"`);
      return n;
    }));
    return (m) => set.has(dns(m).dnsQueryType);
  }),
  def(["ip_version"], "item", (rule, path) => {
    const v = rule.ip_version;
    if (v !== 4 && v !== 6) {
      throw new ConfigError(`${path}/ip_version`, `invalid IP version ${JSON.stringify(v)}: expected 4 or 6`);
    }
    const type = v === 4 ? TYPE.A : TYPE.AAAA;
    return (m) => dns(m).dnsQueryType === type;
  }),
  def(["match_response"], "item", (rule) => {
    const ref = refOf(rule)!;
    return (m) => dns(m).dnsResponses.get(ref) !== undefined;
  }),
  def(["ip_cidr"], "destination_ip", (rule, path) => {
    const builder = new CidrSetBuilder();
    ((rule.ip_cidr ?? []) as string[]).forEach((text, i) => {
      if (!builder.add(text)) throw new ConfigError(`${path}/ip_cidr/${i}`, `invalid IP prefix "${text}"`);
    });
    const set = builder.build();
    return addressCondition("ip_cidr", (v, w) => set.hasWords(v, w))(rule, path);
  }),
  def(["ip_is_private"], "destination_ip", addressCondition("ip_is_private", isPrivateWords)),
  def(["ip_accept_any"], "destination_ip", addressCondition("ip_accept_any", () => true)),
  def(["response_rcode"], "item", (rule, path) => {
    const get = responseGetter(rule, "response_rcode", path);
    const want = parseRcode((rule as { response_rcode?: unknown }).response_rcode, `${path}/response_rcode`);
    return (m) => get(m)?.rcode === want;
  }),
  recordsCondition("response_answer"),
  recordsCondition("response_ns"),
  recordsCondition("response_extra"),
  // Deprecated in sing-box 1.12 (use domain_resolver) but still read: lookups the engine makes
  // for an outbound's connections; "any" matches every such lookup, never a client's query.
  def(["outbound"], "item", (rule) => {
    const wanted = new Set((rule as { outbound?: string[] }).outbound ?? []);
    return (m) => m.outbound !== undefined && (wanted.has("any") || wanted.has(m.outbound));
  }),
];

const REPLACED = new Set(["ip_version", "ip_cidr", "ip_is_private"]);
export const DNS_CONDITIONS: readonly ConditionDef[] = [
  ...ROUTE_CONDITIONS.filter((d) => !d.fields.some((f) => REPLACED.has(f))),
  ...DNS_ONLY,
];

export interface QueryOptions {
  timeout?: number;
  disableCache?: boolean;
  disableOptimisticCache?: boolean;
  rewriteTtl?: number;
  /** A subnet to send, or null to send none. */
  clientSubnet?: Cidr | null;
  strategy?: "prefer_ipv4" | "prefer_ipv6" | "ipv4_only" | "ipv6_only";
}

export interface CompiledDnsRule {
  index: number;
  match(m: DnsMatchMeta): boolean;
  /** Responses (tags, LATEST) the conditions read; matching waits for them. */
  needs: string[];
  action: DnsRule["action"];
  race: boolean;
  speculative: boolean;
  server?: string;
  tag?: string;
  options: QueryOptions;
  predefined?: Predefined;
}

function collectRefs(rule: RuleInput, out: Set<string>): void {
  const ref = refOf(rule);
  if (ref !== undefined) out.add(ref);
  for (const sub of rule.rules ?? []) collectRefs(sub, out);
}

function queryOptions(rule: DnsRule, path: string): QueryOptions {
  const o: QueryOptions = {};
  if (rule.timeout !== undefined) {
    if (rule.timeout <= 0) throw new ConfigError(`${path}/timeout`, "must be greater than zero");
    o.timeout = rule.timeout;
  }
  if (rule.disable_cache) o.disableCache = true;
  if (rule.disable_optimistic_cache) o.disableOptimisticCache = true;
  if (rule.rewrite_ttl !== undefined) o.rewriteTtl = rule.rewrite_ttl;
  if (rule.client_subnet !== undefined) {
    const cidr = parseClientSubnet(rule.client_subnet);
    if (!cidr) {
      throw new ConfigError(`${path}/client_subnet`, `invalid client subnet "${rule.client_subnet}"`);
    }
    o.clientSubnet = cidr;
  }
  if (rule.remove_client_subnet) o.clientSubnet = null;
  if (rule.strategy !== undefined) o.strategy = rule.strategy;
  return o;
}

/** Compiles `dns.rules`; `servers` are the known server tags. Throws ConfigError / UnsupportedError. */
/** `preferred_by`: the query name is one a named server answers by itself (hosts entries, mDNS names). */
function preferredBy(owner: (tag: string) => ((name: string) => boolean) | undefined): ConditionDef {
  return def(["preferred_by"], "item", (rule, path) => {
    const tags = (rule as { preferred_by?: string[] }).preferred_by ?? [];
    const owns = tags.map((tag, i) => {
      const f = owner(tag);
      if (!f) {
        throw new ConfigError(
          `${path}/preferred_by/${i}`,
          `DNS server "${tag}" answers no names by itself (only hosts, local and mdns servers do)`,
        );
      }
      return f;
    });
    return (m) => owns.some((f) => f(m.destination.host));
  });
}

export function compileDnsRules(
  rules: readonly DnsRule[],
  servers: ReadonlySet<string>,
  path = "/dns/rules",
  /** For `preferred_by`: what a server answers by itself; undefined for servers that answer nothing so. */
  owner: (tag: string) => ((name: string) => boolean) | undefined = () => undefined,
): CompiledDnsRule[] {
  const conditions = [
    ...DNS_CONDITIONS.filter((d) => !d.fields.includes("preferred_by")),
    preferredBy(owner),
  ];
  const tags = new Set<string>();
  return rules.map((rule, index) => {
    const at = `${path}/${index}`;
    const matcher = compileRule(rule as unknown as RuleInput, {
      conditions,
      path: at,
      label: "DNS rule",
      mergeDestinationIp: false,
    });
    const refs = new Set<string>();
    collectRefs(rule as unknown as RuleInput, refs);
    for (const ref of refs) {
      if (ref !== LATEST && !tags.has(ref)) {
        throw new ConfigError(at, `"match_response" names "${ref}", which no earlier evaluate rule tags`);
      }
    }
    const action = rule.action;
    const needServer = action === "route" || action === "evaluate";
    if (needServer) {
      if (!rule.server) throw new ConfigError(`${at}/server`, `a ${action} rule needs "server"`);
      if (!servers.has(rule.server)) {
        throw new ConfigError(`${at}/server`, `unknown DNS server "${rule.server}"`);
      }
    }
    if (action === "evaluate") {
      if (!rule.tag) throw new ConfigError(`${at}/tag`, 'an evaluate rule needs "tag"');
      tags.add(rule.tag);
    }
    return {
      index,
      match: matcher.match as (m: DnsMatchMeta) => boolean,
      needs: [...refs],
      action,
      race: rule.race === true && action !== "evaluate" && action !== "route-options",
      speculative: rule.speculative === true && needServer,
      server: needServer ? rule.server : undefined,
      tag: action === "evaluate" ? rule.tag : undefined,
      options: queryOptions(rule, at),
      predefined: action === "predefined" ? compilePredefined(rule, at) : undefined,
    };
  });
}
