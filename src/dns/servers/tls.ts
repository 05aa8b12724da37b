/**
 * `tls`: DNS over TLS (RFC 7858): RFC 7766 framing over a TLS connection to the server, with
 * the connection reused and queries pipelined. The TCP connection is Deno's own (no detour).
 */
import type { Address } from "../../adapter/mod.ts";
import type { DnsTransport } from "../transport.ts";
import { closeQuietly } from "../../net/relay.ts";
import { StreamExchanger } from "./stream.ts";
import type { ClientTls } from "./tls_options.ts";
import { abortable, describe } from "./util.ts";

export class TlsTransport implements DnsTransport {
  readonly type = "tls";
  private readonly stream: StreamExchanger;

  constructor(readonly tag: string, server: Address, tls: ClientTls) {
    const what = describe("tls", server);
    this.stream = new StreamExchanger(async (signal) => {
      const tcp = await abortable(
        Deno.connect({ hostname: server.host, port: server.port, transport: "tcp" }),
        signal,
        what,
        (c) => closeQuietly(c),
      );
      tcp.setNoDelay(true);
      try {
        const conn = await abortable(
          Deno.startTls(tcp, { hostname: tls.serverName, caCerts: tls.caCerts }),
          signal,
          what,
          (c) => closeQuietly(c),
        );
        await abortable(conn.handshake(), signal, `${what}: TLS handshake`);
        return conn;
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
