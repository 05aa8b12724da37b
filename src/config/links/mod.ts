/**
 * Share links and subscriptions into sing-box 1.14 outbound objects (the native format): the
 * library function behind `svc import` and `svc_import_share_links`, and what outbound providers
 * read. Pure parsing: no I/O, no runtime imports.
 */
export { importShareLinks } from "./subscription.ts";
export type { BodyFormat, ImportResult } from "./subscription.ts";
export { LINK_SCHEMES, parseShareLink } from "./link.ts";
export { clashProxyToOutbound } from "./clash_proxy.ts";
export { type Json, LIMITS, LinkError, type LinkProblem } from "./types.ts";
