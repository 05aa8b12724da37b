/**
 * `mdns`: one-shot multicast DNS (RFC 6762 §5.1, §6.7) for `.local` names and the link-local
 * reverse zones. The query goes to 224.0.0.251:5353 (ff02::fb for IPv6 link-local sources) with
 * the QU bit set, from an ephemeral port bound to an address of each interface in `interface`
 * (every multicast interface when empty), so responders answer by unicast to that socket. The
 * first response with answers for the question wins; it is rebuilt as an ordinary response to
 * the original query (its id and question, the matching answers).
 */
import { DnsError } from "../../common/errors.ts";
import type { DnsTransport } from "../transport.ts";
import {
  type Answer,
  canonicalName,
  checkQuery,
  decodeMessage,
  encodeMessage,
  FLAG_RD,
  messageId,
} from "./packet.ts";
import { isLinkLocalName } from "./link_local.ts";
import { abortable, abortError, asDnsError } from "./util.ts";

export const MDNS_PORT = 5353;
export const MDNS_V4 = "224.0.0.251";
export const MDNS_V6 = "ff02::fb";
/** Asked again this often while no answer has come (one-shot queries may be lost). */
const RESEND_MS = 1000;
const FLAG_AA = 0x0400;

/**
 * The query as sent on the link: the id and first question kept, flags cleared (RD is zero in
 * mDNS), and the QU bit (top bit of the class) set. Throws DnsError on a malformed query.
 */
export function mdnsQuery(query: Uint8Array): Uint8Array {
  checkQuery(query);
  // The first name follows the header and cannot be compressed (nothing precedes it).
  let off = 12;
  while (off < query.length && query[off] !== 0) {
    if ((query[off] & 0xc0) !== 0) throw new DnsError("Malformed DNS query: compressed first question");
    off += query[off] + 1;
  }
  const end = off + 5;
  if (end > query.length) throw new DnsError("Malformed DNS query: truncated question");
  const out = new Uint8Array(end);
  out.set(query.subarray(0, 2));
  out[5] = 1; // one question, no other records
  out.set(query.subarray(12, end), 12);
  out[end - 2] |= 0x80;
  return out;
}

/**
 * The response to `query` made from an mDNS `response`: the answers (from any section) whose
 * name and type match the first question, without the cache-flush bit; undefined when none do.
 */
export function mdnsAnswer(query: Uint8Array, response: Uint8Array): Uint8Array | undefined {
  const q = decodeMessage(query);
  const question = q.questions?.[0];
  if (!question) return undefined;
  let r;
  try {
    r = decodeMessage(response);
  } catch {
    return undefined;
  }
  if (r.type !== "response") return undefined;
  const name = canonicalName(question.name);
  const matches = (a: Answer) =>
    canonicalName(a.name) === name &&
    (a.type === question.type || question.type === "ANY" || a.type === "CNAME");
  const answers = [...(r.answers ?? []), ...(r.additionals ?? [])].filter(matches)
    .map((a) => ({ name: a.name, type: a.type, class: "IN", ttl: a.ttl, data: a.data }));
  if (answers.length === 0 || !answers.some((a) => a.type === question.type || question.type === "ANY")) {
    return undefined;
  }
  return encodeMessage({
    id: q.id ?? messageId(query),
    type: "response",
    flags: FLAG_AA | ((q.flags ?? 0) & FLAG_RD),
    questions: [{ name: question.name, type: question.type, class: question.class ?? "IN" }],
    answers,
  });
}

export interface MdnsSource {
  name: string;
  family: "IPv4" | "IPv6";
  /** The local address the socket binds (with a scope for IPv6 link-local). */
  address: string;
}

/**
 * The addresses to send from: IPv4 addresses and IPv6 link-local ones of the `wanted` interfaces,
 * or of every interface `isMulticast` accepts when `wanted` is empty.
 */
export function mdnsSources(
  interfaces: Deno.NetworkInterfaceInfo[],
  wanted: readonly string[],
  isMulticast: (name: string) => boolean,
): MdnsSource[] {
  const out: MdnsSource[] = [];
  for (const i of interfaces) {
    if (wanted.length > 0 ? !wanted.includes(i.name) : !isMulticast(i.name)) continue;
    if (i.family === "IPv4") out.push({ name: i.name, family: "IPv4", address: i.address });
    else if (i.address.toLowerCase().startsWith("fe80:") && i.scopeid) {
      out.push({ name: i.name, family: "IPv6", address: `${i.address}%${i.scopeid}` });
    }
  }
  return out;
}

/** Linux: the IFF_MULTICAST flag from /sys; elsewhere (or unreadable) any interface but loopback. */
export function systemIsMulticast(name: string, interfaces: Deno.NetworkInterfaceInfo[]): boolean {
  try {
    const flags = parseInt(Deno.readTextFileSync(`/sys/class/net/${name}/flags`).trim(), 16);
    if (!Number.isNaN(flags)) return (flags & 0x1000) !== 0;
  } catch { /* not Linux or no permission */ }
  return !interfaces.some((i) => i.name === name && (i.address === "::1" || i.address.startsWith("127.")));
}

export interface MdnsOptions {
  /** The interface list (default Deno.networkInterfaces). */
  interfaces?: () => Deno.NetworkInterfaceInfo[];
  isMulticast?: (name: string) => boolean;
}

export class MdnsTransport implements DnsTransport {
  readonly type = "mdns";
  private readonly what: string;
  private readonly sockets = new Set<Deno.DatagramConn>();

  constructor(
    readonly tag: string,
    private readonly wanted: readonly string[],
    private readonly opts: MdnsOptions = {},
  ) {
    this.what = `DNS mdns "${tag}"`;
  }

  /** `preferred_by`: an mdns server answers the mDNS names. */
  owns(name: string): boolean {
    return isLinkLocalName(name);
  }

  private sources(): MdnsSource[] {
    const list = (this.opts.interfaces ?? (() => Deno.networkInterfaces()))();
    const isMulticast = this.opts.isMulticast ?? ((n: string) => systemIsMulticast(n, list));
    return mdnsSources(list, this.wanted, isMulticast);
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    const q = checkQuery(query);
    if (!isLinkLocalName(q.name)) {
      throw new DnsError(`${this.what}: "${q.name}" is not a .local name or a link-local reverse name`);
    }
    if (signal.aborted) throw abortError(signal, this.what);
    let sources: MdnsSource[];
    try {
      sources = this.sources();
    } catch (e) {
      throw asDnsError(e, `${this.what}: cannot list network interfaces`);
    }
    if (sources.length === 0) {
      const which = this.wanted.length > 0 ? `among ${this.wanted.map((w) => `"${w}"`).join(", ")}` : "";
      throw new DnsError(`${this.what}: no multicast interface with an address ${which}`.trimEnd());
    }
    const sent = mdnsQuery(query);
    const opened: Deno.DatagramConn[] = [];
    const errors: string[] = [];
    let timer: ReturnType<typeof setInterval> | undefined;
    try {
      for (const s of sources) {
        try {
          const sock = Deno.listenDatagram({ transport: "udp", hostname: s.address, port: 0 });
          opened.push(sock);
          this.sockets.add(sock);
        } catch (e) {
          errors.push(`${s.name} ${s.address}: ${e instanceof Error ? e.message : e}`);
        }
      }
      if (opened.length === 0) throw new DnsError(`${this.what}: cannot open a socket: ${errors.join("; ")}`);
      const send = () => {
        opened.forEach((sock) => {
          const v6 = (sock.addr as Deno.NetAddr).hostname.includes(":");
          const target = { transport: "udp" as const, hostname: v6 ? MDNS_V6 : MDNS_V4, port: MDNS_PORT };
          sock.send(sent, target).catch(() => {});
        });
      };
      const answered = new Promise<Uint8Array>((resolve, reject) => {
        let live = opened.length;
        for (const sock of opened) {
          (async () => {
            try {
              while (true) {
                const [data] = await sock.receive();
                const a = mdnsAnswer(query, data);
                if (a) return resolve(a);
              }
            } catch (e) {
              if (--live === 0) reject(asDnsError(e, this.what));
            }
          })();
        }
      });
      send();
      timer = setInterval(send, RESEND_MS);
      return await abortable(answered, signal, this.what);
    } finally {
      clearInterval(timer);
      for (const sock of opened) {
        this.sockets.delete(sock);
        try {
          sock.close();
        } catch { /* closed */ }
      }
    }
  }

  close(): void {
    for (const sock of this.sockets) {
      try {
        sock.close();
      } catch { /* closed */ }
    }
    this.sockets.clear();
  }
}
