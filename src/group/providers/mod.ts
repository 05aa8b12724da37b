/** Outbound providers (`outbound_providers`): sets of outbounds that groups take as members. */
export { Providers, type ProvidersOptions } from "./registry.ts";
export { keeps, Provider, regexes } from "./provider.ts";
export { httpGet } from "./http_get.ts";
