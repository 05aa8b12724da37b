/**
 * `hosts`: answers A and AAAA from inline `predefined` entries and hosts files (`path`,
 * /etc/hosts when unset; re-read when a file changes), as sing-box's hosts server: a name it
 * has gets its addresses of the asked family (none is an empty NOERROR answer); any other name
 * or query type is NXDOMAIN, so a `sequential` or rule fallback can move on.
 */
import { isIpLiteral } from "../../adapter/mod.ts";
import type { DnsTransport } from "../transport.ts";
import {
  type Answer,
  buildResponse,
  canonicalName,
  checkQuery,
  DEFAULT_TTL,
  queryQuestion,
  RCODE,
} from "./packet.ts";
import { abortError } from "./util.ts";

export const DEFAULT_HOSTS_PATH = "/etc/hosts";

/** Parses hosts-file text into name → addresses (first mention first). */
export function parseHostsFile(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const [ip, ...names] = line.split(/\s+/);
    const addr = ip.replace(/%.*/, "");
    if (!isIpLiteral(addr)) continue;
    for (const n of names) {
      const key = canonicalName(n);
      const list = map.get(key) ?? [];
      if (!list.includes(addr)) list.push(addr);
      map.set(key, list);
    }
  }
  return map;
}

export class HostsFile {
  private entries = new Map<string, string[]>();
  private mtime = -1;

  constructor(readonly path: string) {}

  /** Synchronous form for rule matching (`preferred_by`): re-reads the file when it changed. */
  hasSync(name: string): boolean {
    try {
      const m = Deno.statSync(this.path).mtime?.getTime() ?? 0;
      if (m !== this.mtime) {
        this.entries = parseHostsFile(Deno.readTextFileSync(this.path));
        this.mtime = m;
      }
    } catch {
      this.entries = new Map();
      this.mtime = -1;
    }
    return this.entries.has(name);
  }

  async lookup(name: string): Promise<string[] | undefined> {
    try {
      const st = await Deno.stat(this.path);
      const m = st.mtime?.getTime() ?? 0;
      if (m !== this.mtime) {
        this.entries = parseHostsFile(await Deno.readTextFile(this.path));
        this.mtime = m;
      }
    } catch {
      this.entries = new Map();
      this.mtime = -1;
    }
    return this.entries.get(name);
  }
}

export class HostsTransport implements DnsTransport {
  readonly type = "hosts";
  private readonly predefined = new Map<string, string[]>();
  private readonly files: HostsFile[];

  constructor(readonly tag: string, paths: string[] | undefined, predefined?: Record<string, string[]>) {
    this.files = (paths?.length ? paths : [DEFAULT_HOSTS_PATH]).map((p) => new HostsFile(p));
    for (const [name, addrs] of Object.entries(predefined ?? {})) {
      this.predefined.set(canonicalName(name), addrs.map((a) => a.replace(/^\[|\]$/g, "")));
    }
  }

  owns(name: string): boolean {
    const key = canonicalName(name);
    return this.predefined.has(key) || this.files.some((f) => f.hasSync(key));
  }

  /** Addresses this server has for `name`, or undefined. */
  async lookup(name: string): Promise<string[] | undefined> {
    const key = canonicalName(name);
    const p = this.predefined.get(key);
    if (p) return p;
    for (const f of this.files) {
      const a = await f.lookup(key);
      if (a?.length) return a;
    }
    return undefined;
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    checkQuery(query);
    if (signal.aborted) throw abortError(signal, `DNS hosts "${this.tag}"`);
    const q = queryQuestion(query);
    if (q.type === "A" || q.type === "AAAA") {
      const addrs = await this.lookup(q.name);
      if (addrs) {
        const v6 = q.type === "AAAA";
        const answers: Answer[] = addrs
          .filter((a) => a.includes(":") === v6)
          .map((a) => ({ name: q.name, type: q.type, class: "IN", ttl: DEFAULT_TTL, data: a }));
        return buildResponse(query, RCODE.NOERROR, answers);
      }
    }
    return buildResponse(query, RCODE.NXDOMAIN);
  }

  close(): void {}
}
