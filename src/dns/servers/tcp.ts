/** `tcp`: DNS over TCP (RFC 7766) through the server's dialer, so a detour works. */
import type { Address, Dialer } from "../../adapter/mod.ts";
import type { DnsTransport } from "../transport.ts";
import { StreamExchanger } from "./stream.ts";
import { describe, dnsMetadata } from "./util.ts";

export class TcpTransport implements DnsTransport {
  readonly type = "tcp";
  private readonly stream: StreamExchanger;

  constructor(readonly tag: string, server: Address, dialer: Dialer) {
    const metadata = dnsMetadata(tag, server, "tcp");
    this.stream = new StreamExchanger(
      (signal) => dialer.dial(server, metadata, signal),
      describe("tcp", server),
    );
  }

  exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    return this.stream.exchange(query, signal);
  }

  close(): void {
    this.stream.close();
  }
}
