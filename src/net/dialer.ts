/**
 * The socket dialer behind `direct` and every protocol outbound without a detour: dial fields
 * applied as far as Deno allows. Deno.connect takes no local address, so a bind address goes
 * through node:net; fields that need raw socket options fail at build time (see unsupported()).
 */
import { connect as nodeConnect, type Socket } from "node:net";
import type { Address, Conn, Dialer, Metadata, PacketConn } from "../adapter/mod.ts";
import { isIpLiteral } from "../adapter/mod.ts";
import { DialError, errorText } from "../common/errors.ts";
import { joinHostPort } from "../common/address.ts";
import { NodeSocketConn } from "./node_conn.ts";
import type { DomainStrategy, Resolver } from "./resolver.ts";
import { UdpPacketConn } from "./udp.ts";

export interface NetDialOptions {
  connectTimeoutMs?: number;
  inet4BindAddress?: string;
  inet6BindAddress?: string;
  reuseAddr?: boolean;
  disableKeepAlive?: boolean;
  keepAliveMs?: number;
  domainStrategy?: DomainStrategy;
  /** The DNS server `domain_resolver` names, asked directly. */
  resolverServer?: string;
  /** Fallback delay of the next address family when several addresses answer (ms). */
  fallbackDelayMs?: number;
  resolver: Resolver;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export class NetDialer implements Dialer {
  constructor(private readonly opts: NetDialOptions) {}

  async dial(destination: Address, metadata?: Metadata, signal?: AbortSignal): Promise<Conn> {
    // Addresses a `resolve` rule already found for this destination are used as they are.
    const resolved = metadata?.destination.host === destination.host ? metadata.resolvedAddresses : undefined;
    const addresses = isIpLiteral(destination.host)
      ? [destination.host]
      : resolved?.length
      ? resolved
      : await this.opts.resolver.lookup(destination.host, this.opts.domainStrategy, this.opts.resolverServer);
    if (addresses.length === 0) throw new DialError(`No address for "${destination.host}"`);
    let last: unknown;
    for (const ip of addresses) {
      signal?.throwIfAborted();
      try {
        return await this.dialIp(ip, destination.port, signal);
      } catch (e) {
        last = e;
      }
    }
    throw new DialError(`Dial ${joinHostPort(destination.host, destination.port)}: ${errorText(last)}`, {
      cause: last,
    });
  }

  private dialIp(ip: string, port: number, signal?: AbortSignal): Promise<Conn> {
    const timeout = this.opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const bind = ip.includes(":") ? this.opts.inet6BindAddress : this.opts.inet4BindAddress;
    if (bind || this.opts.keepAliveMs !== undefined) return this.dialNode(ip, port, bind, timeout, signal);
    return withTimeout(
      Deno.connect({ hostname: ip, port, transport: "tcp" }),
      timeout,
      signal,
      (c) => c.close(),
    )
      .then((c) => {
        c.setNoDelay(true);
        if (!this.opts.disableKeepAlive) c.setKeepAlive(true);
        return c;
      });
  }

  private dialNode(
    ip: string,
    port: number,
    bind: string | undefined,
    timeout: number,
    signal?: AbortSignal,
  ) {
    return new Promise<Conn>((resolve, reject) => {
      const socket: Socket = nodeConnect({ host: ip, port, localAddress: bind, noDelay: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new DialError(`Connect timed out after ${timeout} ms`));
      }, timeout);
      const onAbort = () => {
        socket.destroy();
        reject(signal?.reason ?? new DialError("Dial aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      socket.once("connect", () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (!this.opts.disableKeepAlive) socket.setKeepAlive(true, this.opts.keepAliveMs ?? 0);
        resolve(new NodeSocketConn(socket));
      });
      socket.once("error", (e) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(e);
      });
    });
  }

  listenPacket(_destination: Address, _metadata?: Metadata): Promise<PacketConn> {
    return Promise.resolve(
      new UdpPacketConn({
        resolver: this.opts.resolver,
        domainStrategy: this.opts.domainStrategy,
        resolverServer: this.opts.resolverServer,
        bind4: this.opts.inet4BindAddress,
        bind6: this.opts.inet6BindAddress,
      }),
    );
  }
}

/** Races `p` against a timeout and an abort signal; a late result is disposed. */
export function withTimeout<T>(
  p: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  dispose: (v: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = () => {
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const timer = setTimeout(() => {
      if (done) return;
      finish();
      reject(new DialError(`Connect timed out after ${ms} ms`));
    }, ms);
    const onAbort = () => {
      if (done) return;
      finish();
      reject(signal?.reason ?? new DialError("Dial aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    p.then((v) => {
      if (done) return dispose(v);
      finish();
      resolve(v);
    }, (e) => {
      if (done) return;
      finish();
      reject(e);
    });
  });
}
