/**
 * `https`: DNS over HTTPS (RFC 8484): POST application/dns-message with id 0, through `fetch`
 * and a client of our own (extra CA certificates; HTTP/2 when the server offers it by ALPN).
 * The URL names `server`, so SNI and certificate verification use it; a `tls.server_name` that
 * differs is sent as the Host header only (Deno's fetch cannot set SNI apart from the URL; its
 * "tcp" proxy speaks plain HTTP).
 */
import type { Address } from "../../adapter/mod.ts";
import { DnsError } from "../../common/errors.ts";
import { joinHostPort } from "../../common/address.ts";
import type { DnsTransport } from "../transport.ts";
import { checkQuery, checkResponse, messageId, withId } from "./packet.ts";
import type { ClientTls } from "./tls_options.ts";
import { abortError, asDnsError, describe } from "./util.ts";

const MAX_RESPONSE = 65535;

export class HttpsTransport implements DnsTransport {
  readonly type = "https";
  private readonly client: Deno.HttpClient;
  private readonly url: string;
  private readonly headers: Headers;
  private readonly what: string;

  constructor(
    readonly tag: string,
    server: Address,
    path: string,
    headers: Record<string, string[]> | undefined,
    tls: ClientTls,
  ) {
    this.url = `https://${joinHostPort(server.host, server.port)}${path.startsWith("/") ? path : `/${path}`}`;
    this.what = `${describe("https", server)}${path}`;
    this.client = Deno.createHttpClient({
      caCerts: tls.caCerts,
      http1: true,
      http2: true,
      allowHost: tls.serverName !== server.host,
    });
    this.headers = new Headers();
    for (const [k, vs] of Object.entries(headers ?? {})) for (const v of vs) this.headers.append(k, v);
    this.headers.set("content-type", "application/dns-message");
    this.headers.set("accept", "application/dns-message");
    if (tls.serverName !== server.host && !this.headers.has("host")) {
      this.headers.set(
        "host",
        server.port === 443 ? tls.serverName : joinHostPort(tls.serverName, server.port),
      );
    }
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
  }
}
