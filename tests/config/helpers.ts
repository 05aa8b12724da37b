/** Builders for test configurations. */

export type Json = Record<string, unknown>;

/** A small valid configuration, with `extra` merged over it at the top level. */
export function config(extra: Json = {}): Json {
  return {
    inbounds: [{ type: "mixed", tag: "mixed-in", listen_port: 2080 }],
    outbounds: [{ type: "direct", tag: "direct" }],
    ...extra,
  };
}

/** A configuration whose outbounds are `outbounds` after the `direct` one. */
export function withOutbounds(...outbounds: Json[]): Json {
  return config({ outbounds: [{ type: "direct", tag: "direct" }, ...outbounds] });
}

/** A configuration with one inbound. */
export function withInbound(inbound: Json): Json {
  return config({ inbounds: [inbound] });
}

/** A configuration with these route rules (and optionally more route fields). */
export function withRules(rules: Json[], route: Json = {}): Json {
  return config({ route: { rules, ...route } });
}

/** A configuration with a DNS object. */
export function withDns(dns: Json): Json {
  return config({ dns });
}
