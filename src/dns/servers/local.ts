/**
 * `local`: the system resolver. A and AAAA go through getaddrinfo (`lookup`), so /etc/hosts and
 * nsswitch apply; other types through the system's configured nameservers (`resolve*`). The
 * answer message is built here from the query. Records carry DEFAULT_TTL: the system APIs do
 * not report one.
 */
import * as nodeDns from "node:dns/promises";
import type { DnsTransport } from "../transport.ts";
import { DEFAULT_HOSTS_PATH, HostsFile } from "./hosts.ts";
import { isLinkLocalName } from "./link_local.ts";
import {
  type Answer,
  buildResponse,
  canonicalName,
  checkQuery,
  DEFAULT_TTL,
  queryQuestion,
  RCODE,
} from "./packet.ts";
import { abortable, abortError } from "./util.ts";

const NO_NAME = new Set(["ENOTFOUND", "NXDOMAIN"]);
const NO_DATA = new Set(["ENODATA", "NODATA"]);

function code(e: unknown): string {
  return (e as { code?: string })?.code ?? "";
}

export class LocalTransport implements DnsTransport {
  readonly type = "local";
  private readonly resolver = new nodeDns.Resolver();
  private readonly what: string;

  private readonly hosts = new HostsFile(DEFAULT_HOSTS_PATH);

  constructor(readonly tag: string) {
    this.what = `DNS local "${tag}"`;
  }

  /** The system's own names: its hosts file and the names resolved over the local link (mDNS). */
  owns(name: string): boolean {
    return isLinkLocalName(name) || this.hosts.hasSync(canonicalName(name));
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    checkQuery(query);
    if (signal.aborted) throw abortError(signal, this.what);
    const q = queryQuestion(query);
    const name = q.name;
    try {
      const answers = await abortable(this.answers(name, q.type), signal, this.what);
      return buildResponse(query, RCODE.NOERROR, answers);
    } catch (e) {
      if (signal.aborted) throw abortError(signal, this.what);
      if (NO_DATA.has(code(e))) return buildResponse(query, RCODE.NOERROR);
      if (NO_NAME.has(code(e))) {
        // getaddrinfo says ENOTFOUND for a name without the asked family, too.
        if ((q.type === "A" || q.type === "AAAA") && (await this.exists(name))) {
          return buildResponse(query, RCODE.NOERROR);
        }
        return buildResponse(query, RCODE.NXDOMAIN);
      }
      if (code(e) === "ENOTIMP" || code(e) === "NOTIMP") return buildResponse(query, RCODE.NOTIMP);
      if (code(e) === "EREFUSED" || code(e) === "REFUSED") return buildResponse(query, RCODE.REFUSED);
      return buildResponse(query, RCODE.SERVFAIL);
    }
  }

  private async exists(name: string): Promise<boolean> {
    try {
      return (await nodeDns.lookup(name, { all: true })).length > 0;
    } catch {
      return false;
    }
  }

  private async answers(name: string, type: string): Promise<Answer[]> {
    const rr = (t: string, data: unknown): Answer => ({ name, type: t, class: "IN", ttl: DEFAULT_TTL, data });
    const r = this.resolver;
    switch (type) {
      case "A":
      case "AAAA": {
        const found = await nodeDns.lookup(name, { all: true, family: type === "A" ? 4 : 6 });
        const out = found.filter((a) => a.family === (type === "A" ? 4 : 6)).map((a) => a.address);
        return [...new Set(out)].map((a) => rr(type, a));
      }
      case "CNAME":
        return (await r.resolveCname(name)).map((d) => rr("CNAME", d));
      case "NS":
        return (await r.resolveNs(name)).map((d) => rr("NS", d));
      case "PTR":
        return (await r.resolvePtr(name)).map((d) => rr("PTR", d));
      case "TXT":
        return (await r.resolveTxt(name)).map((d) => rr("TXT", d));
      case "MX":
        return (await r.resolveMx(name)).map((m) =>
          rr("MX", { preference: m.priority, exchange: m.exchange })
        );
      case "SRV":
        return (await r.resolveSrv(name)).map((s) =>
          rr("SRV", { priority: s.priority, weight: s.weight, port: s.port, target: s.name })
        );
      case "CAA":
        return (await r.resolveCaa(name)).map((c) => {
          const [tag, value] = Object.entries(c).find(([k]) => k !== "critical") ?? ["issue", ""];
          return rr("CAA", { flags: c.critical ?? 0, tag, value: String(value) });
        });
      case "SOA": {
        const s = await r.resolveSoa(name);
        return [rr("SOA", {
          mname: s.nsname,
          rname: s.hostmaster,
          serial: s.serial,
          refresh: s.refresh,
          retry: s.retry,
          expire: s.expire,
          minimum: s.minttl,
        })];
      }
      default:
        throw Object.assign(new Error(`query type ${type} is not supported by the system resolver`), {
          code: "ENOTIMP",
        });
    }
  }

  close(): void {
    try {
      this.resolver.cancel();
    } catch { /* nothing pending */ }
  }
}
