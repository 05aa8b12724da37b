/**
 * `[General]` keys → listeners, log level, DNS servers and the direct/hijack rules Surge applies
 * before its `[Rule]` section. Keys for the UI, the OS integration or timing are warned about;
 * unknown keys are errors.
 */
import type { SurgeConversion } from "./context.ts";
import { keyValue, splitItems } from "./line.ts";
import type { Line, Loc } from "./source.ts";

const LOG_LEVELS: Record<string, string> = {
  verbose: "debug",
  info: "info",
  notify: "warn",
  warning: "warn",
};

/** Ignored with a warning: display, OS integration, timing; none changes routing or security. */
const WARN: Record<string, string> = {
  "internet-test-url": "connectivity display only",
  "external-controller-access": "Surge's HTTP API is not served (use the native api object)",
  "http-api": "Surge's HTTP API is not served (use the native api object)",
  "http-api-web-dashboard": "Surge's HTTP API is not served",
  "always-real-ip": "svc makes no fake addresses from a Surge profile, so every answer is real",
  "tun-excluded-routes": "no TUN inbound is made from a Surge profile",
  "tun-included-routes": "no TUN inbound is made from a Surge profile",
  "enhanced-mode-by-rule": "no TUN inbound is made from a Surge profile",
  "show-error-page-for-reject": "display only",
  "wifi-assist": "OS integration",
  "allow-hotspot-access": "OS integration",
  "wifi-access-http-port": "use http-listen",
  "wifi-access-socks5-port": "use socks5-listen",
  "replica": "display only",
  "udp-priority": "timing",
  "udp-policy-not-supported-behaviour": "UDP through a policy without UDP fails as that policy fails",
  "read-etc-hosts": "svc reads its own hosts rules",
  "use-local-host-item-for-proxy": "hosts rules apply as written",
  "compatibility-mode": "OS integration",
  "exclude-simple-hostnames": "",
  "network-framework": "OS integration",
  "disable-geoip-db-auto-update": "svc downloads no assets itself",
  "geoip-maxmind-url": "svc downloads no assets itself",
  "test-timeout": "",
  "proxy-test-url": "",
};

export interface General {
  proxyTestUrl?: string;
  testTimeout?: number;
}

function listenAddress(text: string, loc: Loc, cv: SurgeConversion): [string, number] | undefined {
  const m = /^(\[[^\]]+\]|[^:]*):(\d{1,5})$/.exec(text.trim()) ?? /^()(\d{1,5})$/.exec(text.trim());
  if (!m || Number(m[2]) > 65535) {
    cv.fail(loc, `expected "address:port", got "${text}"`);
    return undefined;
  }
  return [m[1].replace(/^\[|\]$/g, "") || "0.0.0.0", Number(m[2])];
}

export function convertGeneral(lines: Line[], cv: SurgeConversion): General {
  const keys = new Map<string, Line & { value: string }>();
  for (const line of lines) {
    const kv = keyValue(line.text);
    if (!kv) {
      cv.fail(line.loc, `expected "key = value", got "${line.text.slice(0, 60)}"`);
      continue;
    }
    const key = kv[0].toLowerCase();
    keys.set(key, { ...line, value: kv[1] });
    if (WARN[key]) cv.note(line.loc, `"${kv[0]}" is ignored: ${WARN[key]}`);
    else if (WARN[key] === undefined && !READ.has(key)) cv.fail(line.loc, `unknown [General] key "${kv[0]}"`);
  }
  const get = (k: string) => keys.get(k);
  const out: General = {};

  const level = get("loglevel");
  if (level) {
    const l = LOG_LEVELS[level.value.toLowerCase()];
    if (l) cv.set(["log", "level"], l, cv.at(level.loc));
    else cv.fail(level.loc, `unknown log level "${level.value}": expected verbose, info, notify or warning`);
  }

  // Listeners: http-listen/socks5-listen, else the older interface/port keys.
  const lan = get("allow-wifi-access")?.value.toLowerCase() === "true";
  const listeners: [string, string, string | undefined, string | undefined][] = [
    ["http", "http-listen", "interface", "port"],
    ["socks", "socks5-listen", "socks-interface", "socks-port"],
  ];
  for (const [type, listenKey, ifaceKey, portKey] of listeners) {
    const listen = get(listenKey);
    const portLine = portKey ? get(portKey) : undefined;
    let addr: [string, number] | undefined;
    let loc: Loc | undefined;
    if (listen) {
      loc = listen.loc;
      addr = listenAddress(listen.value, loc, cv);
    } else if (portLine) {
      loc = portLine.loc;
      const iface = ifaceKey ? get(ifaceKey)?.value : undefined;
      addr = listenAddress(`${iface ?? (lan ? "0.0.0.0" : "127.0.0.1")}:${portLine.value}`, loc, cv);
    }
    if (!addr || !loc) continue;
    cv.push(["inbounds"], {
      type,
      tag: cv.uniqueInboundTag(`${type}-in`),
      listen: addr[0],
      listen_port: addr[1],
    }, cv.at(loc));
  }

  const ipv6 = get("ipv6");
  if (ipv6?.value.toLowerCase() === "false") cv.set(["dns", "strategy"], "ipv4_only", cv.at(ipv6.loc));
  const url = get("proxy-test-url");
  if (url) out.proxyTestUrl = url.value;
  const timeout = get("test-timeout");
  if (timeout) {
    if (/^\d{1,4}$/.test(timeout.value)) out.testTimeout = Number(timeout.value);
    else cv.fail(timeout.loc, `"test-timeout": expected seconds, got "${timeout.value}"`);
  }
  return out;
}

/** Keys read here or by the DNS and bypass converters. */
const READ = new Set([
  "loglevel",
  "dns-server",
  "encrypted-dns-server",
  "skip-proxy",
  "exclude-simple-hostnames",
  "ipv6",
  "http-listen",
  "socks5-listen",
  "allow-wifi-access",
  "interface",
  "port",
  "socks-interface",
  "socks-port",
  "hijack-dns",
  "proxy-test-url",
  "test-timeout",
]);

/** A [General] value split into its comma list. */
export const list = (lines: Line[], key: string): { items: string[]; loc: Loc } | undefined => {
  const line = lines.findLast((l) => keyValue(l.text)?.[0].toLowerCase() === key);
  return line ? { items: splitItems(keyValue(line.text)![1]), loc: line.loc } : undefined;
};
