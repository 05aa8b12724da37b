/**
 * One Clash/mihomo `proxies` entry into a sing-box outbound (or the WireGuard endpoint). Shared
 * with the Clash configuration loader. Keys mihomo has and sing-box cannot express in a way that
 * changes security (certificate fingerprints, other plugins, v4 TUIC tokens) are refused.
 */
import { ClashEntry, type Dict } from "./clash_fields.ts";
import { hysteriaPorts } from "./quic_links.ts";
import { shadowsocksOutbound } from "./shadowsocks.ts";
import { tlsBlock, type TlsParams, transportBlock } from "./tls_transport.ts";
import { compact, type Json, LinkError } from "./types.ts";
import { vmessSecurity } from "./vmess.ts";
import { type WgPeer, wgReserved, wireguardEndpoint } from "./wireguard.ts";

function tlsParams(e: ClashEntry): TlsParams {
  if (e.str("fingerprint")) {
    throw new LinkError('"fingerprint" (certificate pinning) is not supported', "fingerprint");
  }
  const reality = e.dict("reality-opts");
  return {
    sni: e.str("servername") ?? e.str("sni"),
    insecure: e.bool("skip-cert-verify"),
    alpn: e.list("alpn"),
    fingerprint: e.str("client-fingerprint"),
    reality: reality ? { publicKey: reality.str("public-key"), shortId: reality.str("short-id") } : undefined,
  };
}

function transport(e: ClashEntry): Json | undefined {
  const net = e.str("network") ?? "tcp";
  if (net === "http") {
    throw new LinkError('network "http" (HTTP/1.1 header obfuscation) is not supported', "network");
  }
  if (net === "ws") {
    const ws = e.dict("ws-opts");
    const headers = ws?.strings("headers");
    if (ws?.bool("v2ray-http-upgrade")) {
      return transportBlock({
        network: "httpupgrade",
        path: ws.str("path"),
        host: headers?.Host ?? headers?.host,
      });
    }
    return transportBlock({
      network: "ws",
      path: ws?.str("path"),
      headers,
      maxEarlyData: ws?.int("max-early-data"),
      earlyDataHeader: ws?.str("early-data-header-name"),
    });
  }
  if (net === "h2") {
    const h2 = e.dict("h2-opts");
    return transportBlock({ network: "h2", host: h2?.list("host")?.join(","), path: h2?.str("path") });
  }
  if (net === "grpc") {
    return transportBlock({ network: "grpc", serviceName: e.dict("grpc-opts")?.str("grpc-service-name") });
  }
  if (net === "httpupgrade") {
    const o = e.dict("httpupgrade-opts") ?? e.dict("ws-opts");
    const headers = o?.strings("headers");
    return transportBlock({
      network: "httpupgrade",
      path: o?.str("path"),
      host: o?.str("host") ?? headers?.Host,
    });
  }
  return transportBlock({ network: net });
}

/** Fields every entry may carry: dial fields, UDP, multiplex. */
function common(e: ClashEntry, udpCapable: boolean): Json {
  const smux = e.dict("smux");
  return compact({
    detour: e.str("dialer-proxy"),
    bind_interface: e.str("interface-name"),
    routing_mark: e.int("routing-mark"),
    tcp_fast_open: e.bool("tfo"),
    tcp_multi_path: e.bool("mptcp"),
    // mihomo relays UDP only with `udp: true`.
    network: udpCapable && e.bool("udp") !== true ? "tcp" : undefined,
    multiplex: smux?.bool("enabled")
      ? compact({
        enabled: true,
        protocol: smux.str("protocol"),
        max_connections: smux.int("max-connections"),
        min_streams: smux.int("min-streams"),
        max_streams: smux.int("max-streams"),
        padding: smux.bool("padding"),
      })
      : undefined,
  });
}

function ssPlugin(e: ClashEntry): string | undefined {
  const plugin = e.str("plugin");
  if (!plugin) return undefined;
  const o = e.dict("plugin-opts");
  if (plugin === "obfs") {
    const mode = o?.str("mode") ?? "http";
    return `obfs-local;obfs=${mode}${o?.str("host") ? `;obfs-host=${o.str("host")}` : ""}`;
  }
  if (plugin === "v2ray-plugin") {
    const mode = o?.str("mode") ?? "websocket";
    if (mode !== "websocket") {
      throw new LinkError(`v2ray-plugin mode "${mode}" is not supported`, "plugin-opts");
    }
    const opts = ["mode=websocket"];
    if (o?.bool("tls")) opts.push("tls");
    if (o?.str("host")) opts.push(`host=${o.str("host")}`);
    if (o?.str("path")) opts.push(`path=${o.str("path")}`);
    if (o?.bool("mux") !== undefined) opts.push(`mux=${o.bool("mux") ? 1 : 0}`);
    return `v2ray-plugin;${opts.join(";")}`;
  }
  throw new LinkError(
    `shadowsocks plugin "${plugin}" is not supported (only obfs and v2ray-plugin)`,
    "plugin",
  );
}

function durationSeconds(e: ClashEntry, key: string, unit: "s" | "ms"): string | undefined {
  const n = e.int(key);
  return n === undefined ? undefined : `${n}${unit}`;
}

function mbps(e: ClashEntry, key: string): number | undefined {
  const v = e.str(key);
  if (v === undefined) return undefined;
  const m = /^\s*(\d{1,6})\s*(mbps)?\s*$/i.exec(v);
  if (!m) throw new LinkError(`"${key}": expected Mbps as a number`, key);
  return Number(m[1]);
}

function wireguard(e: ClashEntry, name: string): Json {
  if (e.d["amnezia-wg-option"] !== undefined) {
    throw new LinkError("AmneziaWG options are not supported", "amnezia-wg-option");
  }
  const address = [e.str("ip"), e.str("ipv6")].filter((a): a is string => !!a);
  const peerOf = (p: ClashEntry, fallback?: ClashEntry): WgPeer => ({
    server: p.need("server"),
    port: p.port(),
    publicKey: p.need("public-key"),
    preSharedKey: p.str("pre-shared-key") ?? fallback?.str("pre-shared-key"),
    allowedIps: p.list("allowed-ips"),
    keepalive: fallback?.int("persistent-keepalive"),
    reserved: wgReserved(p.d["reserved"] ?? fallback?.d["reserved"]),
  });
  const peersRaw = e.d["peers"];
  let peers: WgPeer[];
  if (Array.isArray(peersRaw) && peersRaw.length) {
    peers = peersRaw.map((p) => {
      if (typeof p !== "object" || p === null || Array.isArray(p)) {
        throw new LinkError('"peers": expected mappings', "peers");
      }
      return peerOf(new ClashEntry(p as Dict), e);
    });
  } else peers = [peerOf(e)];
  return {
    ...wireguardEndpoint(name, e.need("private-key"), address, peers, e.int("mtu", 576, 65535)),
    ...common(e, false),
  };
}

/** Maps one proxy dict; throws LinkError (with the key when one is at fault). */
export function clashProxyToOutbound(d: Dict): Json {
  const e = new ClashEntry(d);
  const name = e.need("name");
  const type = e.need("type").toLowerCase();
  if (type === "direct") return { type: "direct", tag: name, ...common(e, false) };
  if (type === "wireguard") return wireguard(e, name);
  const base = { tag: name, server: e.need("server"), server_port: e.port() };
  const tlsOn = e.bool("tls") === true;
  switch (type) {
    case "ss":
      return compact({
        ...shadowsocksOutbound(
          name,
          base.server,
          base.server_port,
          e.need("cipher"),
          e.str("password") ?? "",
          ssPlugin(e),
        ),
        udp_over_tcp: e.bool("udp-over-tcp") || undefined,
        ...common(e, true),
      });
    case "vmess":
      return compact({
        type: "vmess",
        ...base,
        uuid: e.need("uuid"),
        security: vmessSecurity(e.str("cipher")),
        alter_id: e.int("alterId", 0, 65535) ?? 0,
        global_padding: e.bool("global-padding"),
        authenticated_length: e.bool("authenticated-length"),
        packet_encoding: e.str("packet-encoding"),
        tls: tlsOn ? tlsBlock(tlsParams(e)) : undefined,
        transport: transport(e),
        ...common(e, true),
      });
    case "vless": {
      const enc = e.str("encryption");
      if (enc && enc !== "none") {
        throw new LinkError(`VLESS encryption "${enc}" is not supported`, "encryption");
      }
      const flow = e.str("flow") || undefined;
      if (flow && flow !== "xtls-rprx-vision") {
        throw new LinkError(`VLESS flow "${flow}" is not supported`, "flow");
      }
      return compact({
        type: "vless",
        ...base,
        uuid: e.need("uuid"),
        flow,
        packet_encoding: e.str("packet-encoding"),
        tls: tlsOn || e.d["reality-opts"] ? tlsBlock(tlsParams(e)) : undefined,
        transport: transport(e),
        ...common(e, true),
      });
    }
    case "trojan":
      return compact({
        type: "trojan",
        ...base,
        password: e.need("password"),
        tls: tlsBlock(tlsParams(e)),
        transport: transport(e),
        ...common(e, true),
      });
    case "socks5":
      return compact({
        type: "socks",
        ...base,
        version: "5",
        username: e.str("username") || undefined,
        password: e.str("password") || undefined,
        tls: tlsOn ? tlsBlock(tlsParams(e)) : undefined,
        ...common(e, true),
      });
    case "http":
      return compact({
        type: "http",
        ...base,
        username: e.str("username") || undefined,
        password: e.str("password") || undefined,
        headers: e.strings("headers"),
        tls: tlsOn ? tlsBlock(tlsParams(e)) : undefined,
        ...common(e, false),
      });
    case "hysteria2": {
      const obfs = e.str("obfs");
      if (obfs && obfs !== "salamander") {
        throw new LinkError(`hysteria2 obfs "${obfs}" is not supported`, "obfs");
      }
      const ports = e.str("ports") ? hysteriaPorts(`${base.server_port},${e.str("ports")}`) : {};
      return compact({
        type: "hysteria2",
        ...base,
        ...ports,
        hop_interval: durationSeconds(e, "hop-interval", "s"),
        up_mbps: mbps(e, "up"),
        down_mbps: mbps(e, "down"),
        obfs: obfs ? { type: "salamander", password: e.str("obfs-password") ?? "" } : undefined,
        password: e.str("password") ?? "",
        tls: tlsBlock(tlsParams(e)),
        ...common(e, false),
      });
    }
    case "tuic": {
      if (e.str("token")) throw new LinkError("TUIC v4 (token) is not supported", "token");
      return compact({
        type: "tuic",
        ...base,
        uuid: e.need("uuid"),
        password: e.str("password") ?? "",
        congestion_control: e.str("congestion-controller"),
        udp_relay_mode: e.str("udp-relay-mode"),
        zero_rtt_handshake: e.bool("reduce-rtt"),
        heartbeat: durationSeconds(e, "heartbeat-interval", "ms"),
        tls: tlsBlock({ ...tlsParams(e), disableSni: e.bool("disable-sni") }),
        ...common(e, false),
      });
    }
    case "anytls":
      return compact({
        type: "anytls",
        ...base,
        password: e.need("password"),
        idle_session_check_interval: durationSeconds(e, "idle-session-check-interval", "s"),
        idle_session_timeout: durationSeconds(e, "idle-session-timeout", "s"),
        min_idle_session: e.int("min-idle-session"),
        tls: tlsBlock(tlsParams(e)),
        ...common(e, false),
      });
    default:
      throw new LinkError(`proxy type "${type.slice(0, 40)}" is not supported`, "type");
  }
}
