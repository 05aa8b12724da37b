/** One share link into one sing-box outbound (or endpoint) object, by scheme. */
import { parseAnytls } from "./anytls.ts";
import { parseHysteria2, parseTuic } from "./quic_links.ts";
import { parseShadowsocks } from "./shadowsocks.ts";
import { parseHttp, parseSocks } from "./socks_http.ts";
import { type Json, LIMITS, LinkError } from "./types.ts";
import { parseTrojan, parseVless } from "./vless_trojan.ts";
import { parseVmess } from "./vmess.ts";
import { parseWireguard } from "./wireguard.ts";

const PARSERS: Record<string, (link: string) => Json> = {
  ss: parseShadowsocks,
  vmess: parseVmess,
  vless: parseVless,
  trojan: parseTrojan,
  hysteria2: parseHysteria2,
  hy2: parseHysteria2,
  tuic: parseTuic,
  socks: parseSocks,
  socks5: parseSocks,
  socks4: parseSocks,
  socks4a: parseSocks,
  http: parseHttp,
  https: parseHttp,
  anytls: parseAnytls,
  wireguard: parseWireguard,
  wg: parseWireguard,
};

/** The schemes `parseShareLink` reads. */
export const LINK_SCHEMES: readonly string[] = Object.keys(PARSERS);

/**
 * Parses one share link. The result's `tag` is the link's name (possibly ""); the subscription
 * reader makes tags unique. Throws LinkError with a message saying what is wrong.
 */
export function parseShareLink(link: string): Json {
  const text = link.trim();
  if (text.length > LIMITS.maxLinkChars) {
    throw new LinkError(`link longer than ${LIMITS.maxLinkChars} characters`);
  }
  const m = /^([A-Za-z][A-Za-z0-9+.-]{0,20}):\/\//.exec(text);
  if (!m) throw new LinkError("not a share link: expected scheme://");
  const scheme = m[1].toLowerCase();
  const parse = PARSERS[scheme];
  if (!parse) throw new LinkError(`unknown scheme "${scheme}"`);
  return parse(scheme === m[1] ? text : scheme + text.slice(m[1].length));
}
