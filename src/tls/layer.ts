/**
 * The TLS layer built from a `tls` block: a client for outbounds, a listener for inbounds.
 * Minimal first cut (owned by the TLS work): server_name, alpn and extra CA certificates on the
 * client; certificate/key on the server through Deno.listenTls.
 */
import type { Conn } from "../adapter/mod.ts";
import { ConfigError } from "../common/errors.ts";
import type { InboundTlsModel, OutboundTlsModel } from "../config/mod.ts";
import { tlsClient } from "./client.ts";

export interface TlsEnvironment {
  /** Extra trusted roots from the top-level `certificate` object (PEM). */
  caCerts?: string[];
}

export interface TlsClientLayer {
  wrap(conn: Conn, defaultServerName: string, alpnOverride?: string[]): Promise<Conn>;
}

export function isTlsEnabled(tls: unknown): boolean {
  return typeof tls === "object" && tls !== null && (tls as { enabled?: boolean }).enabled === true;
}

export function tlsClientLayer(tls: OutboundTlsModel, env: TlsEnvironment, path = ""): TlsClientLayer {
  if (tls.insecure) throw new ConfigError(`${path}/tls/insecure`, "insecure TLS is not implemented yet");
  const caCerts = [...(env.caCerts ?? []), ...(tls.certificate ?? [])];
  if (tls.certificate_path) caCerts.push(Deno.readTextFileSync(tls.certificate_path));
  return {
    wrap: (conn, defaultServerName, alpnOverride) =>
      tlsClient(conn, {
        serverName: tls.server_name ?? defaultServerName,
        caCerts: caCerts.length ? caCerts : undefined,
        alpn: alpnOverride ?? tls.alpn,
      }),
  };
}

export interface TlsServerLayer {
  listen(hostname: string, port: number): Deno.TlsListener;
}

export function tlsServerLayer(tls: InboundTlsModel, path = ""): TlsServerLayer {
  const cert = tls.certificate?.join("\n") ??
    (tls.certificate_path ? Deno.readTextFileSync(tls.certificate_path) : undefined);
  const key = tls.key?.join("\n") ?? (tls.key_path ? Deno.readTextFileSync(tls.key_path) : undefined);
  if (!cert) throw new ConfigError(`${path}/tls`, "a TLS server needs certificate or certificate_path");
  if (!key) throw new ConfigError(`${path}/tls`, "a TLS server needs key or key_path");
  return {
    listen: (hostname, port) => Deno.listenTls({ hostname, port, cert, key, alpnProtocols: tls.alpn }),
  };
}
