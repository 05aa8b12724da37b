/**
 * Turns an outbound's dial fields (with the route's defaults) into its Dialer: the net dialer,
 * or another outbound when `detour` is set. Fields Deno cannot honour are configuration errors
 * naming their path, never silently ignored.
 */
import type { Address, Dialer, Metadata, Outbound } from "../adapter/mod.ts";
import type { DialFields, RouteModel } from "../config/mod.ts";
import { ConfigError } from "../common/errors.ts";
import { NetDialer } from "../net/dialer.ts";
import type { DomainStrategy, Resolver } from "../net/resolver.ts";

const NO_SOCKOPT = "not supported on this platform: Deno exposes no socket descriptor to set it on";

export function dialerFor(
  fields: DialFields,
  path: string,
  route: RouteModel,
  resolver: Resolver,
  outbound: (tag: string) => Outbound | undefined,
  warn: (message: string) => void,
): Dialer {
  const errors: ConfigError[] = [];
  const bindInterface = fields.bind_interface ?? route.default_interface;
  if (bindInterface !== undefined) {
    errors.push(
      new ConfigError(`${path}/bind_interface`, `binding to an interface is ${NO_SOCKOPT} (SO_BINDTODEVICE)`),
    );
  }
  const mark = fields.routing_mark ?? route.default_mark;
  if (mark !== undefined && mark !== 0) {
    errors.push(new ConfigError(`${path}/routing_mark`, `a routing mark is ${NO_SOCKOPT} (SO_MARK)`));
  }
  if (fields.network_strategy !== undefined || route.default_network_strategy !== undefined) {
    errors.push(
      new ConfigError(
        `${path}/network_strategy`,
        "network strategies are not supported on this platform yet",
      ),
    );
  }
  if (fields.tcp_keep_alive_interval !== undefined || fields.tcp_keep_alive_count !== undefined) {
    const f = fields.tcp_keep_alive_interval !== undefined
      ? "tcp_keep_alive_interval"
      : "tcp_keep_alive_count";
    errors.push(
      new ConfigError(`${path}/${f}`, `setting the keep-alive probe interval or count is ${NO_SOCKOPT}`),
    );
  }
  if (errors.length) throw errors;
  if (fields.tcp_fast_open) {
    warn(
      `${path}/tcp_fast_open: TCP Fast Open is not available through Deno; connections use a normal handshake`,
    );
  }
  if (fields.reuse_addr) {
    // Outgoing sockets bind ephemeral ports, where SO_REUSEADDR changes nothing.
    warn(`${path}/reuse_addr: has no effect on outgoing sockets through Deno; ignored`);
  }
  if (fields.detour) {
    const tag = fields.detour;
    return new DetourDialer(tag, () => outbound(tag));
  }
  return new NetDialer({
    connectTimeoutMs: fields.connect_timeout,
    inet4BindAddress: fields.inet4_bind_address,
    inet6BindAddress: fields.inet6_bind_address,
    reuseAddr: fields.reuse_addr,
    disableKeepAlive: fields.disable_tcp_keep_alive,
    keepAliveMs: fields.tcp_keep_alive,
    resolverServer: (fields.domain_resolver ?? route.default_domain_resolver)?.server,
    domainStrategy: (fields.domain_resolver?.strategy ?? route.default_domain_resolver?.strategy) as
      | DomainStrategy
      | undefined,
    resolver,
  });
}

/** Dials through another outbound (a detour chain); cycles are refused by validation. */
class DetourDialer implements Dialer {
  constructor(private readonly tag: string, private readonly get: () => Outbound | undefined) {}

  private target(): Outbound {
    const o = this.get();
    if (!o) throw new Error(`Detour outbound "${this.tag}" is not built`);
    return o;
  }

  dial(destination: Address, metadata: Metadata, signal?: AbortSignal) {
    return this.target().dial(destination, { ...metadata, destination }, signal);
  }

  listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal) {
    return this.target().listenPacket(destination, { ...metadata, destination }, signal);
  }
}
