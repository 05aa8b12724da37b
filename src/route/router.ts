/**
 * The router: decides an outbound for each connection with the ordered rules, dials it, relays,
 * and keeps the connection in the tracker for its whole life.
 */
import type {
  Conn,
  ConnectionHandler,
  DnsService,
  Metadata,
  Outbound,
  Packet,
  PacketConn,
} from "../adapter/mod.ts";
import { isHandshakeConn } from "../adapter/mod.ts";
import { joinHostPort } from "../common/address.ts";
import { errorText, SvcError } from "../common/errors.ts";
import type { Logger } from "../common/log.ts";
import { BufferedConn } from "../net/buffered_conn.ts";
import { closeQuietly, relay } from "../net/relay.ts";
import type { Resolver } from "../net/resolver.ts";
import { CountingConn, type TrackedConnection, type Tracker } from "../tracker/mod.ts";
import { type CompiledRule, decide, type Decision, type Sniffer } from "./decide.ts";
import { sniffPackets, sniffStream } from "./sniff/mod.ts";
import { relayPackets } from "./packet_relay.ts";
import { hijackPackets, hijackStream } from "./dns_hijack.ts";

export interface RouterOptions {
  rules: readonly CompiledRule[];
  outbounds: ReadonlyMap<string, Outbound>;
  /** Tag of route.final. */
  final: string;
  tracker: Tracker;
  resolver: Resolver;
  /** Answers hijacked DNS queries. */
  dns: DnsService;
  logger: Logger;
}

/** UDP idle timeouts by sniffed protocol (sing-box's defaults). */
const PROTOCOL_UDP_TIMEOUT: Record<string, number> = {
  dns: 10_000,
  ntp: 10_000,
  stun: 10_000,
  quic: 30_000,
  dtls: 30_000,
};
const DEFAULT_UDP_TIMEOUT = 300_000;

export class Router implements ConnectionHandler {
  constructor(private readonly o: RouterOptions) {}

  /** Hijacked DNS is tracked like any connection, with "dns" as its outbound. */
  private async hijack(metadata: Metadata, rule: string, close: () => void, serve: () => Promise<void>) {
    const tracked = this.o.tracker.add({ metadata, outbound: "dns", rule, close });
    this.log(metadata, `hijacked by ${rule}`, tracked);
    try {
      await serve();
    } finally {
      this.o.tracker.remove(tracked);
    }
  }

  private outboundFor(d: Decision & { kind: "route" }): Outbound {
    return this.o.outbounds.get(d.outbound ?? this.o.final)!;
  }

  /** A fake IP becomes its name (dialed by name); a reverse-mapped address lends rules its name. */
  private mapAddress(m: Metadata): void {
    const found = this.o.dns.domainOf(m.destination.host);
    if (!found) return;
    if (found.fake) {
      m.originalDestination ??= { ...m.destination };
      m.destination = { host: found.domain, port: m.destination.port };
    } else {
      m.sniffedDomain ??= found.domain;
    }
  }

  async routeConnection(conn: Conn, metadata: Metadata): Promise<void> {
    this.mapAddress(metadata);
    let buffered: BufferedConn | undefined;
    const sniff: Sniffer = async (allowed, timeoutMs) => {
      buffered ??= new BufferedConn(conn);
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const out = sniffStream(buffered.buffered(), allowed);
        if (out.kind === "found") return out.result;
        if (out.kind === "none" && buffered.buffered().length > 0) return undefined;
        const left = deadline - Date.now();
        if (left <= 0 || !(await buffered.fillWithin(left))) return undefined;
      }
    };
    const decision = await decide(metadata, { ...this.ctx(), sniff });
    const client: Conn = buffered ?? conn;
    if (decision.kind === "hijack-dns") {
      if (isHandshakeConn(conn)) await conn.handshakeSuccess();
      return await this.hijack(
        metadata,
        decision.rule,
        () => closeQuietly(client),
        () => hijackStream(client, this.o.dns, metadata),
      );
    }
    if (decision.kind === "reject") {
      this.log(metadata, `rejected by ${decision.rule}`);
      if (decision.method !== "drop" && isHandshakeConn(conn)) {
        await conn.handshakeFailure(new SvcError("rejected", `Rejected by ${decision.rule}`));
      }
      closeQuietly(client);
      return;
    }
    const outbound = this.outboundFor(decision);
    const abort = new AbortController();
    let remote: Conn | undefined;
    const tracked = this.o.tracker.add({
      metadata,
      outbound: outbound.tag,
      rule: decision.rule,
      close: () => {
        abort.abort(new Error("Connection closed"));
        closeQuietly(client);
        closeQuietly(remote);
      },
    });
    try {
      this.log(metadata, `via ${outbound.tag} (${decision.rule})`, tracked);
      try {
        remote = await outbound.dial(metadata.destination, metadata, abort.signal);
      } catch (e) {
        this.o.logger.warn(`${tag(tracked)} dial ${dest(metadata)} via ${outbound.tag}: ${errorText(e)}`);
        if (isHandshakeConn(conn)) await conn.handshakeFailure(e);
        closeQuietly(client);
        return;
      }
      if (isHandshakeConn(conn)) await conn.handshakeSuccess();
      await relay(client, remote, tracked.counters);
    } finally {
      this.o.tracker.remove(tracked);
    }
  }

  async dialConnection(metadata: Metadata, initial?: Uint8Array): Promise<Conn | null> {
    this.mapAddress(metadata);
    const sniff: Sniffer = (allowed) => {
      const out = initial ? sniffStream(initial, allowed) : undefined;
      return Promise.resolve(out?.kind === "found" ? out.result : undefined);
    };
    const decision = await decide(metadata, { ...this.ctx(), sniff });
    if (decision.kind !== "route") {
      // Forwarded HTTP carries no DNS: a hijack here refuses like a reject.
      this.log(metadata, `rejected by ${decision.rule}`);
      return null;
    }
    const outbound = this.outboundFor(decision);
    let remote: Conn | undefined;
    const tracked = this.o.tracker.add({
      metadata,
      outbound: outbound.tag,
      rule: decision.rule,
      close: () => closeQuietly(remote),
    });
    this.log(metadata, `via ${outbound.tag} (${decision.rule})`, tracked);
    try {
      remote = await outbound.dial(metadata.destination, metadata);
    } catch (e) {
      this.o.tracker.remove(tracked);
      this.o.logger.warn(`${tag(tracked)} dial ${dest(metadata)} via ${outbound.tag}: ${errorText(e)}`);
      throw e;
    }
    return new CountingConn(remote, tracked, () => this.o.tracker.remove(tracked));
  }

  async routePacketConnection(conn: PacketConn, metadata: Metadata): Promise<void> {
    const idle = metadata.udpTimeoutMs ?? DEFAULT_UDP_TIMEOUT;
    const first = await withIdle(conn.readPacket(), idle);
    if (!first) return conn.close();
    metadata.destination = first.addr;
    this.mapAddress(metadata);
    const queued: Packet[] = [first];
    const sniff: Sniffer = async (allowed, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const out = sniffPackets(queued.map((p) => p.data), allowed);
        if (out.kind === "found") return out.result;
        if (out.kind === "none" || queued.length >= 8) return undefined;
        const next = await withIdle(conn.readPacket(), deadline - Date.now());
        if (!next) return undefined;
        queued.push(next);
      }
    };
    const udpTimeout = metadata.udpTimeoutMs;
    metadata.udpTimeoutMs = undefined;
    const decision = await decide(metadata, { ...this.ctx(), sniff });
    if (decision.kind === "reject") {
      this.log(metadata, `rejected by ${decision.rule}`);
      return conn.close();
    }
    if (decision.kind === "hijack-dns") {
      const idle = metadata.udpTimeoutMs ?? PROTOCOL_UDP_TIMEOUT.dns;
      return await this.hijack(
        metadata,
        decision.rule,
        () => conn.close(),
        () => hijackPackets(conn, queued, this.o.dns, metadata, idle),
      );
    }
    const timeout = metadata.udpTimeoutMs ??
      (metadata.protocol ? PROTOCOL_UDP_TIMEOUT[metadata.protocol] : undefined) ?? udpTimeout ??
      DEFAULT_UDP_TIMEOUT;
    metadata.udpTimeoutMs = timeout;
    const outbound = this.outboundFor(decision);
    let remote: PacketConn | undefined;
    const tracked = this.o.tracker.add({
      metadata,
      outbound: outbound.tag,
      rule: decision.rule,
      close: () => {
        conn.close();
        closeQuietly(remote);
      },
    });
    this.log(metadata, `via ${outbound.tag} (${decision.rule})`, tracked);
    try {
      remote = await outbound.listenPacket(metadata.destination, metadata);
      await relayPackets(conn, remote, queued, tracked.counters, timeout, metadata);
    } catch (e) {
      this.o.logger.warn(`${tag(tracked)} udp ${dest(metadata)} via ${outbound.tag}: ${errorText(e)}`);
    } finally {
      conn.close();
      closeQuietly(remote);
      this.o.tracker.remove(tracked);
    }
  }

  private ctx() {
    return { rules: this.o.rules, resolver: this.o.resolver, logger: this.o.logger };
  }

  private log(m: Metadata, what: string, t?: TrackedConnection): void {
    if (!this.o.logger.enabled("info")) return;
    const user = m.user ? ` user ${m.user}` : "";
    const sniffed = m.sniffedDomain && m.sniffedDomain !== m.destination.host
      ? ` sniffed ${m.sniffedDomain}`
      : "";
    this.o.logger.info(
      `${t ? tag(t) + " " : ""}${m.network} ${joinHostPort(m.source.host, m.source.port)} -> ${
        dest(m)
      }${sniffed} [${m.inbound}${user}] ${what}`,
    );
  }
}

function tag(t: TrackedConnection): string {
  return `[${t.id.slice(0, 8)}]`;
}

function dest(m: Metadata): string {
  return joinHostPort(m.destination.host, m.destination.port);
}

function withIdle<T>(p: Promise<T | null>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<null>((r) => (timer = setTimeout(() => r(null), Math.max(ms, 0))))])
    .finally(() => clearTimeout(timer));
}
