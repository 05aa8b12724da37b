/**
 * `https`: DNS over HTTPS (RFC 8484): POST application/dns-message with id 0, through `fetch`
 * and a client of our own (extra CA certificates; HTTP/2 when the server offers it by ALPN).
 * With a `detour`, or a `tls.server_name` other than the server's address, fetch goes through a
 * private loopback CONNECT proxy that dials the server with the server's dialer: the URL then
 * names `server_name` (so SNI and verification use it) and the tunnel reaches `server`.
 */
import type { Address, Dialer } from "../../adapter/mod.ts";
import { DnsError } from "../../common/errors.ts";
import { joinHostPort } from "../../common/address.ts";
import { LoopbackConnectProxy } from "../../net/loopback_connect_proxy.ts";
import type { DnsTransport } from "../transport.ts";
import { checkQuery, checkResponse, messageId, withId } from "./packet.ts";
import type { ClientTls } from "./tls_options.ts";
import { abortError, asDnsError, describe, dnsMetadata } from "./util.ts";

const MAX_RESPONSE = 65535;

export class HttpsTransport implements DnsTransport {
  readonly type = "https";
  private readonly client: Deno.HttpClient;
  private readonly url: string;
  private readonly headers: Headers;
  private readonly what: string;
  private readonly proxy?: LoopbackConnectProxy;

  constructor(
    readonly tag: string,
    server: Address,
    path: string,
    headers: Record<string, string[]> | undefined,
    tls: ClientTls,
    /** Set when the server is reached through a detour. */
    dialer?: Dialer,
  ) {
    const tunnel = dialer !== undefined || tls.serverName !== server.host;
    const urlHost = tunnel ? tls.serverName : server.host;
    this.url = `https://${joinHostPort(urlHost, server.port)}${path.startsWith("/") ? path : `/${path}`}`;
    this.what = `${describe("https", server)}${path}`;
    if (tunnel) {
      const dial = dialer ?? { dial: (a: Address) => Deno.connect({ hostname: a.host, port: a.port }) };
      this.proxy = new LoopbackConnectProxy(() => dial.dial(server, dnsMetadata(tag, server, "tcp")));
    }
    this.client = Deno.createHttpClient({
      caCerts: tls.caCerts,
      http1: true,
      http2: true,
      proxy: this.proxy && { url: this.proxy.url, basicAuth: this.proxy.basicAuth },
    });
    this.headers = new Headers();
    for (const [k, vs] of Object.entries(headers ?? {})) for (const v of vs) this.headers.append(k, v);
    this.headers.set("content-type", "application/dns-message");
    this.headers.set("accept", "application/dns-message");
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    checkQuery(query);
    if (signal.aborted) throw abortError(signal, this.what);
    const sent = withId(query, 0);
    let body: Uint8Array;
    try {
      const init: RequestInit & { client: Deno.HttpClient } = {
        method: "POST",
        headers: this.headers,
        body: sent as Uint8Array<ArrayBuffer>,
        client: this.client,
        signal,
      };
      const res = await fetch(this.url, init);
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new DnsError(`${this.what}: HTTP status ${res.status}`);
      }
      const length = Number(res.headers.get("content-length") ?? "0");
      if (length > MAX_RESPONSE) {
        await res.body?.cancel();
        throw new DnsError(`${this.what}: response of ${length} bytes is too long`);
      }
      body = new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      if (signal.aborted) throw abortError(signal, this.what);
      throw asDnsError(e, this.what);
    }
    if (body.length > MAX_RESPONSE) throw new DnsError(`${this.what}: response is too long`);
    checkResponse(sent, body);
    return withId(body, messageId(query));
  }

  close(): void {
    try {
      this.client.close();
    } catch { /* closed */ }
    this.proxy?.close();
  }
}
