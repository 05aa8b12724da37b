/**
 * DNS server transports by `type`. `createTransport` builds one from its model; `race` and
 * `sequential` find their members through `deps.transports` at query time.
 */
import type { Dialer } from "../../adapter/mod.ts";
import { UnsupportedError } from "../../common/errors.ts";
import type { DnsServerModel } from "../../config/model/dns_server.ts";
import type { DnsTransport } from "../transport.ts";
import { H3Transport } from "./h3.ts";
import { HostsTransport } from "./hosts.ts";
import { HttpsTransport } from "./https.ts";
import { LocalTransport } from "./local.ts";
import { MdnsTransport } from "./mdns.ts";
import { QuicTransport } from "./quic.ts";
import { RaceTransport } from "./race.ts";
import { SequentialTransport } from "./sequential.ts";
import { TcpTransport } from "./tcp.ts";
import { TlsTransport } from "./tls.ts";
import { clientTls } from "./tls_options.ts";
import { UdpTransport } from "./udp.ts";

export type { DnsTransport } from "../transport.ts";
export { H3Transport } from "./h3.ts";
export { HostsTransport, parseHostsFile } from "./hosts.ts";
export { HttpsTransport } from "./https.ts";
export { LocalTransport } from "./local.ts";
export { MdnsTransport } from "./mdns.ts";
export { QuicTransport } from "./quic.ts";
export { RaceTransport } from "./race.ts";
export { SequentialTransport } from "./sequential.ts";
export { TcpTransport } from "./tcp.ts";
export { TlsTransport } from "./tls.ts";
export { UdpTransport } from "./udp.ts";

export interface TransportDeps {
  /** The server's dialer: its detour outbound, or the net dialer with its dial fields. */
  dialer: Dialer;
  transports: (tag: string) => DnsTransport | undefined;
  /** Extra CA certificates (PEM) trusted by the encrypted transports (the `certificate` object). */
  certificates?: string[];
}

/** Strips brackets from an IPv6 literal given as "[::1]". */
function host(s: string): string {
  return s.startsWith("[") && s.endsWith("]") ? s.slice(1, -1) : s;
}

export function createTransport(server: DnsServerModel, deps: TransportDeps): DnsTransport {
  switch (server.type) {
    case "udp":
      return new UdpTransport(
        server.tag,
        { host: host(server.server), port: server.server_port },
        deps.dialer,
      );
    case "tcp":
      return new TcpTransport(
        server.tag,
        { host: host(server.server), port: server.server_port },
        deps.dialer,
      );
    case "tls": {
      const addr = { host: host(server.server), port: server.server_port };
      return new TlsTransport(
        server.tag,
        addr,
        clientTls(server.tag, addr.host, server.tls, deps.certificates),
        deps.dialer,
      );
    }
    case "https": {
      const addr = { host: host(server.server), port: server.server_port };
      const tls = clientTls(server.tag, addr.host, server.tls, deps.certificates);
      const viaDialer = server.detour ? deps.dialer : undefined;
      return new HttpsTransport(server.tag, addr, server.path, server.headers, tls, viaDialer);
    }
    case "quic": {
      const addr = { host: host(server.server), port: server.server_port };
      return new QuicTransport(
        server.tag,
        addr,
        clientTls(server.tag, addr.host, server.tls, deps.certificates),
        server.detour ? deps.dialer : undefined,
      );
    }
    case "h3": {
      const addr = { host: host(server.server), port: server.server_port };
      const tls = clientTls(server.tag, addr.host, server.tls, deps.certificates);
      const viaDialer = server.detour ? deps.dialer : undefined;
      return new H3Transport(server.tag, addr, server.path, server.headers, tls, viaDialer);
    }
    case "local":
      return new LocalTransport(server.tag);
    case "hosts":
      return new HostsTransport(server.tag, server.path, server.predefined);
    case "race":
      return new RaceTransport(server.tag, server.servers, deps.transports);
    case "sequential":
      return new SequentialTransport(server.tag, server.servers, deps.transports);
    case "mdns":
      return new MdnsTransport(server.tag, server.interface);
    case "fakeip":
      throw new UnsupportedError(
        `DNS server "${server.tag}": type "${server.type}" is not built by createTransport`,
      );
  }
}
