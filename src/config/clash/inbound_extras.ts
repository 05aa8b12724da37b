/** Clash `sniffer` → sniff rules; `tun` → a TUN inbound with its DNS hijack. */
import { asBool, asInt, asList, asString, Conversion, isRecord } from "./conversion.ts";

type Json = Record<string, unknown>;

const SNIFFERS: Record<string, string> = { HTTP: "http", TLS: "tls", QUIC: "quic" };

export function convertSniffer(c: Json, cv: Conversion): void {
  const s = c.sniffer;
  if (!isRecord(s) || asBool(s.enable) !== true) return;
  const path = ["sniffer"];
  for (
    const key of [
      "override-destination",
      "force-dns-mapping",
      "parse-pure-ip",
      "force-domain",
      "skip-domain",
      "skip-src-address",
      "skip-dst-address",
    ]
  ) {
    if (s[key] !== undefined) {
      cv.warn([...path, key], `"${key}" is ignored: sniffed domains are used for routing`);
    }
  }
  const sniff = s.sniff;
  if (isRecord(sniff)) {
    for (const [proto, opts] of Object.entries(sniff)) {
      const name = SNIFFERS[proto.toUpperCase()];
      if (!name) {
        cv.error([...path, "sniff", proto], `unknown sniffer "${proto}": expected HTTP, TLS or QUIC`);
        continue;
      }
      const rule: Json = { action: "sniff", sniffer: [name] };
      const single: number[] = [], ranges: string[] = [];
      for (const p of isRecord(opts) ? asList(opts.ports) : []) {
        const m = /^(\d+)(?:-(\d+))?$/.exec(String(p).trim());
        if (!m) cv.error([...path, "sniff", proto, "ports"], `invalid port "${p}"`);
        else if (m[2]) ranges.push(`${m[1]}:${m[2]}`);
        else single.push(Number(m[1]));
      }
      if (single.length) rule.port = single;
      if (ranges.length) rule.port_range = ranges;
      if (!single.length && !ranges.length) rule.network = name === "quic" ? ["udp"] : ["tcp"];
      cv.push(["route", "rules"], rule, [...path, "sniff", proto]);
    }
  } else {
    // Older form: `sniffing: [tls, http]`.
    const list = asList(s.sniffing).map((x) => SNIFFERS[String(x).toUpperCase()]).filter(Boolean);
    cv.push(["route", "rules"], {
      action: "sniff",
      ...(list.length ? { sniffer: list } : {}),
      network: ["tcp", "udp"],
    }, path);
  }
}

export function convertTun(c: Json, cv: Conversion): void {
  const t = c.tun;
  if (!isRecord(t) || asBool(t.enable) !== true) return;
  const tag = cv.uniqueInboundTag("tun-in");
  const inbound: Json = { type: "tun", tag };
  const stack = asString(t.stack);
  if (stack) inbound.stack = stack.toLowerCase();
  if (asBool(t["auto-route"]) !== undefined) inbound.auto_route = asBool(t["auto-route"]);
  if (asBool(t["strict-route"]) !== undefined) inbound.strict_route = asBool(t["strict-route"]);
  const mtu = asInt(t.mtu);
  if (mtu) inbound.mtu = mtu;
  const device = asString(t.device);
  if (device) inbound.interface_name = device;
  cv.push(["inbounds"], inbound, ["tun"]);
  if (asBool(t["auto-detect-interface"])) {
    cv.set(["route", "auto_detect_interface"], true, ["tun", "auto-detect-interface"]);
  }
  const hijack = asList(t["dns-hijack"]).map(String);
  if (hijack.length) {
    cv.push(["route", "rules"], { inbound: [tag], port: [53], action: "hijack-dns" }, ["tun", "dns-hijack"]);
  }
}
