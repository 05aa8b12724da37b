/**
 * Socks-style address codecs as the v2ray family writes them. VMess, VLESS and mux.cool/XUDP put
 * the port first and number the families 1 (IPv4), 2 (domain), 3 (IPv6); sing's packetaddr puts the
 * address first with 1 (IPv4) and 2 (IPv6) and no domains. One parameterised codec serves all.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { formatIp, parseIp } from "../../common/ip.ts";

export interface AddressCodecSpec {
  ipv4: number;
  ipv6: number;
  /** Type byte of a domain name; absent when the format cannot carry one. */
  domain?: number;
  portFirst: boolean;
  /** For error messages. */
  name: string;
}

export interface AddressCodec {
  /** Bytes `encode` will write for `addr`. */
  length(addr: Address): number;
  /** Writes `addr` at `out[off]`; returns the offset after it. */
  encode(addr: Address, out: Uint8Array, off: number): number;
  /** Reads an address at `off`: undefined when more bytes are needed, ProtocolError when invalid. */
  decode(b: Uint8Array, off: number): { addr: Address; next: number } | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function addressCodec(spec: AddressCodecSpec): AddressCodec {
  const hostLength = (host: string): number => {
    const ip = parseIp(host);
    if (ip) return ip.version === 4 ? 5 : 17;
    if (spec.domain === undefined) throw new ProtocolError(`${spec.name} cannot carry domain name "${host}"`);
    const n = encoder.encode(host).length;
    if (n === 0 || n > 255) throw new ProtocolError(`Bad domain name for ${spec.name}: "${host}"`);
    return 2 + n;
  };
  const writeHost = (host: string, out: Uint8Array, off: number): number => {
    const ip = parseIp(host);
    if (ip) {
      out[off++] = ip.version === 4 ? spec.ipv4 : spec.ipv6;
      for (const w of ip.words) {
        out[off++] = w >>> 24;
        out[off++] = (w >>> 16) & 255;
        out[off++] = (w >>> 8) & 255;
        out[off++] = w & 255;
      }
      return off;
    }
    const name = encoder.encode(host);
    out[off++] = spec.domain!;
    out[off++] = name.length;
    out.set(name, off);
    return off + name.length;
  };
  const readHost = (b: Uint8Array, p: number): { host: string; next: number } | undefined => {
    if (b.length < p + 1) return undefined;
    const t = b[p++];
    if (t === spec.ipv4) {
      if (b.length < p + 4) return undefined;
      return { host: `${b[p]}.${b[p + 1]}.${b[p + 2]}.${b[p + 3]}`, next: p + 4 };
    }
    if (t === spec.ipv6) {
      if (b.length < p + 16) return undefined;
      const words = new Uint32Array(4);
      for (let k = 0; k < 4; k++) {
        const q = p + 4 * k;
        words[k] = ((b[q] << 24) | (b[q + 1] << 16) | (b[q + 2] << 8) | b[q + 3]) >>> 0;
      }
      return { host: formatIp({ version: 6, words }), next: p + 16 };
    }
    if (spec.domain !== undefined && t === spec.domain) {
      if (b.length < p + 1) return undefined;
      const n = b[p];
      if (n === 0) throw new ProtocolError(`Empty domain name in ${spec.name} address`);
      if (b.length < p + 1 + n) return undefined;
      return { host: decoder.decode(b.subarray(p + 1, p + 1 + n)), next: p + 1 + n };
    }
    throw new ProtocolError(`Unknown ${spec.name} address type ${t}`);
  };
  return {
    length: (addr) => hostLength(addr.host) + 2,
    encode(addr, out, off) {
      if (spec.portFirst) {
        out[off++] = addr.port >> 8;
        out[off++] = addr.port & 255;
        return writeHost(addr.host, out, off);
      }
      off = writeHost(addr.host, out, off);
      out[off++] = addr.port >> 8;
      out[off++] = addr.port & 255;
      return off;
    },
    decode(b, off) {
      if (spec.portFirst) {
        if (b.length < off + 2) return undefined;
        const port = (b[off] << 8) | b[off + 1];
        const h = readHost(b, off + 2);
        return h && { addr: { host: h.host, port }, next: h.next };
      }
      const h = readHost(b, off);
      if (!h || b.length < h.next + 2) return undefined;
      return { addr: { host: h.host, port: (b[h.next] << 8) | b[h.next + 1] }, next: h.next + 2 };
    },
  };
}

/** VMess, VLESS and mux.cool: port, then 1 IPv4 / 2 domain / 3 IPv6. */
export const v2rayAddress: AddressCodec = addressCodec({
  ipv4: 1,
  domain: 2,
  ipv6: 3,
  portFirst: true,
  name: "v2ray",
});

/** sing's packetaddr: 1 IPv4 / 2 IPv6, then port; no domains. */
export const packetAddress: AddressCodec = addressCodec({
  ipv4: 1,
  ipv6: 2,
  portFirst: false,
  name: "packetaddr",
});
