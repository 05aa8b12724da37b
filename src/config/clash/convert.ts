/**
 * A Clash/mihomo YAML configuration → the native JSON document. Every top-level key is either
 * read, ignored with a warning (when ignoring it changes neither routing nor security), or an
 * error, as for the native format; unknown keys are errors.
 */
import { asBool, asList, asString, Conversion, isRecord } from "./conversion.ts";
import { convertDns } from "./dns.ts";
import { convertGeneral } from "./general.ts";
import { convertGroups, Policies } from "./groups.ts";
import { convertSniffer, convertTun } from "./inbound_extras.ts";
import { convertProxies } from "./proxies.ts";
import {
  convertProxyProviders,
  convertRuleProviders,
  ipRuleProviders,
  proxyProviderNames,
} from "./providers.ts";
import { convertRules } from "./rules.ts";

type Json = Record<string, unknown>;

const READ = new Set([
  "port",
  "socks-port",
  "mixed-port",
  "redir-port",
  "tproxy-port",
  "allow-lan",
  "bind-address",
  "authentication",
  "mode",
  "log-level",
  "ipv6",
  "external-controller",
  "external-controller-cors",
  "secret",
  "external-ui",
  "external-ui-url",
  "profile",
  "hosts",
  "sniffer",
  "tun",
  "dns",
  "proxies",
  "proxy-groups",
  "proxy-providers",
  "rule-providers",
  "rules",
  "sub-rules",
  "interface-name",
  "routing-mark",
]);

/** Ignored with a warning: timing, UI, asset downloads, process lookup mode. */
const WARN: Record<string, string> = {
  "unified-delay": "delays are always measured the same way",
  "tcp-concurrent": "addresses are dialled as the dial fields say",
  "find-process-mode": "process rules look processes up when they are used",
  "keep-alive-idle": "TCP keep-alive uses the defaults",
  "keep-alive-interval": "TCP keep-alive uses the defaults",
  "disable-keep-alive": "TCP keep-alive uses the defaults",
  "geodata-mode": "geo assets are read from the data directory",
  "geodata-loader": "geo assets are read from the data directory",
  "geosite-matcher": "geosite matching has one implementation",
  "geo-auto-update": "svc downloads no assets itself",
  "geo-update-interval": "svc downloads no assets itself",
  "geox-url": "svc downloads no assets itself",
  "etag-support": "not needed",
  "global-ua": "downloads use svc's user agent",
  "external-ui-name": "the UI is served from external-ui",
  "external-controller-unix": "the control API's Unix socket is set in the native api object",
  "external-controller-pipe": "named pipes are not used",
  "external-doh-server": "not served",
  "skip-auth-prefixes": "every client authenticates",
  "clash-for-android": "Android client settings",
  experimental: "experimental switches",
  "log-file": "log output is set with the native log object",
};

/** Errors unless switched off: they change who may connect or where traffic goes. */
const REFUSED: Record<string, (v: unknown) => string | undefined> = {
  "lan-allowed-ips": (v) =>
    asList(v).every((x) => ["0.0.0.0/0", "::/0"].includes(String(x)))
      ? undefined
      : "client address filters are not supported",
  "lan-disallowed-ips": (v) => (asList(v).length ? "client address filters are not supported" : undefined),
  "external-controller-tls": (v) => (v ? "a TLS control API is not supported" : undefined),
  ebpf: (
    v,
  ) => (isRecord(v) && (asList(v["redirect-to-tun"]).length || asList(v["auto-redir"]).length)
    ? "eBPF redirection is not supported"
    : undefined),
  iptables: (v) => (isRecord(v) && asBool(v.enable) ? "iptables management is not supported" : undefined),
  listeners: (
    v,
  ) => (asList(v).length ? "named listeners are not supported yet: use the port keys" : undefined),
  tunnels: (v) => (asList(v).length ? "tunnels are not supported yet" : undefined),
  "global-client-fingerprint": (v) =>
    v && v !== "none" ? "browser TLS fingerprints (uTLS) are not implemented yet" : undefined,
  ntp: (v) => (isRecord(v) && asBool(v.enable) ? "ntp: use the native ntp object" : undefined),
  tls: () => undefined,
};

export function convertClash(c: Json): Conversion {
  const cv = new Conversion();
  for (const [key, value] of Object.entries(c)) {
    if (READ.has(key)) continue;
    if (WARN[key] !== undefined) cv.warn([key], `"${key}" is ignored: ${WARN[key]}`);
    else if (REFUSED[key]) {
      const why = REFUSED[key](value);
      if (why) cv.error([key], why);
    } else cv.error([key], `unknown key "${key}"`);
  }
  convertGeneral(c, cv);
  const iface = asString(c["interface-name"]);
  if (iface) cv.set(["route", "default_interface"], iface, ["interface-name"]);
  if (c["routing-mark"] !== undefined) cv.set(["route", "default_mark"], c["routing-mark"], ["routing-mark"]);

  const proxies = convertProxies(c, cv);
  const policies = new Policies(cv, proxies, proxyProviderNames(c));
  convertGroups(c, cv, policies);
  convertProxyProviders(c, cv, policies);
  if (!policies.groups.has("GLOBAL")) {
    const members = [...policies.groups, ...proxies];
    cv.tags.add("GLOBAL");
    cv.push(
      ["outbounds"],
      { type: "selector", tag: "GLOBAL", outbounds: [...members, policies.directTag()] },
      [],
    );
  }
  convertRuleProviders(c, cv, policies);

  // Order of route rules: sniff, DNS hijack, mode switches, then the user's rules.
  convertSniffer(c, cv);
  convertTun(c, cv);
  convertDns(c, cv, policies);
  // `mode` is applied as written: global and direct send everything one way. Switching modes at
  // run time needs the compat API's mode condition, which is not built yet.
  const mode = asString(c.mode)?.toLowerCase();
  if (mode === "global" || mode === "direct") {
    cv.set(["route", "final"], mode === "global" ? "GLOBAL" : policies.directTag(), ["mode"]);
    if (asList(c.rules).length) cv.warn(["rules"], `rules are not used in ${mode} mode`);
    return placeDefaults(c, cv);
  }
  convertRules(c, cv, {
    policy: (name, path) => policies.target(name, path),
    inboundsByPort: (port) => inbounds(cv).filter((i) => i.listen_port === port).map((i) => String(i.tag)),
    inboundsByType: (type) =>
      inbounds(cv).filter((i) => CLASH_INBOUND_TYPES[type]?.includes(String(i.type))).map((i) =>
        String(i.tag)
      ),
    ipRuleSets: ipRuleProviders(c),
  });
  if (cv.get(["route", "final"]) === undefined) cv.set(["route", "final"], policies.directTag());
  return placeDefaults(c, cv);
}

/** Route-wide defaults reach every outbound: problems with them belong to the key that set them. */
function placeDefaults(c: Json, cv: Conversion): Conversion {
  ((cv.doc.outbounds ?? []) as Json[]).forEach((_, i) => {
    if (c["interface-name"] !== undefined) cv.origin(["outbounds", i, "bind_interface"], ["interface-name"]);
    if (c["routing-mark"] !== undefined) cv.origin(["outbounds", i, "routing_mark"], ["routing-mark"]);
  });
  return cv;
}

const CLASH_INBOUND_TYPES: Record<string, string[]> = {
  HTTP: ["http", "mixed"],
  HTTPS: ["http", "mixed"],
  SOCKS: ["socks", "mixed"],
  SOCKS4: ["socks", "mixed"],
  SOCKS5: ["socks", "mixed"],
  MIXED: ["mixed"],
  REDIR: ["redirect"],
  TPROXY: ["tproxy"],
  TUN: ["tun"],
};

const inbounds = (cv: Conversion) => ((cv.doc.inbounds ?? []) as Json[]);
