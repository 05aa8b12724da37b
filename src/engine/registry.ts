/** The one list of built-in protocols: every register() call is here. */
import type { InboundFactory, InboundTraits, OutboundFactory, Registry } from "../adapter/mod.ts";
import { register as block } from "../protocol/block/mod.ts";
import { register as direct } from "../protocol/direct/mod.ts";
import { register as groups } from "../group/mod.ts";
import { register as http } from "../protocol/http/mod.ts";
import { register as mixed } from "../protocol/mixed/mod.ts";
import { register as shadowsocks } from "../protocol/shadowsocks/mod.ts";
import { register as socks } from "../protocol/socks/mod.ts";
import { register as trojan } from "../protocol/trojan/mod.ts";
import { register as vless } from "../protocol/vless/mod.ts";
import { register as vmess } from "../protocol/vmess/mod.ts";

export interface ProtocolTable {
  inbounds: Map<string, InboundFactory>;
  inboundTraits: Map<string, InboundTraits>;
  outbounds: Map<string, OutboundFactory>;
}

export function builtinProtocols(): ProtocolTable {
  const t: ProtocolTable = { inbounds: new Map(), inboundTraits: new Map(), outbounds: new Map() };
  const r: Registry = {
    inbound: (type, f, traits) => {
      t.inbounds.set(type, f);
      t.inboundTraits.set(type, traits ?? { reloadable: false });
    },
    outbound: (type, f) => void t.outbounds.set(type, f),
  };
  for (const register of [direct, block, socks, http, mixed, shadowsocks, trojan, vless, vmess, groups]) {
    register(r);
  }
  return t;
}

/** Compiled-in features, for `svc version` and capabilities. */
export function features(t: ProtocolTable = builtinProtocols()): string[] {
  return [
    ...[...t.inbounds.keys()].map((k) => `inbound:${k}`),
    ...[...t.outbounds.keys()].map((k) => `outbound:${k}`),
  ];
}
