/**
 * `tls`: DNS over TLS (RFC 7858): RFC 7766 framing over a TLS connection to the server, with
 * the connection reused and queries pipelined. The stream comes from the server's dialer, so a
 * `detour` works (TLS over a proxied stream goes through src/tls's bridge).
 */
import type { Address, Dialer } from "../../adapter/mod.ts";
import { tlsClient } from "../../tls/mod.ts";
import type { DnsTransport } from "../transport.ts";
import { closeQuietly } from "../../net/relay.ts";
import { StreamExchanger } from "./stream.ts";
import type { ClientTls } from "./tls_options.ts";
import { abortable, describe, dnsMetadata } from "./util.ts";

export class TlsTransport implements DnsTransport {
  readonly type = "tls";
  private readonly stream: StreamExchanger;

  constructor(readonly tag: string, server: Address, tls: ClientTls, dialer: Dialer) {
    const what = describe("tls", server);
    this.stream = new StreamExchanger(async (signal) => {
      const tcp = await abortable(
        dialer.dial(server, dnsMetadata(tag, server, "tcp"), signal),
        signal,
        what,
        (c) => closeQuietly(c),
      );
      try {
        return await abortable(
          tlsClient(tcp, { serverName: tls.serverName, caCerts: tls.caCerts }),
          signal,
          `${what}: TLS handshake`,
          (c) => closeQuietly(c),
        );
      } catch (e) {
        closeQuietly(tcp);
        throw e;
      }
    }, what);
  }

  exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    return this.stream.exchange(query, signal);
  }

  close(): void {
    this.stream.close();
  }
}
