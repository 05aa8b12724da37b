/**
 * The TLS layer built from a `tls` block: a client for outbounds, a server for inbounds.
 *
 * Engine choice, by measurement: the system OpenSSL 3 over memory BIOs (openssl.ts) honours every
 * field (insecure, versions, ciphers, curves, pins, client certificates, exclusive trust), runs TLS
 * over any Conn without a loopback bridge, and is the faster path here: scripts/bench/tls.ts,
 * 256 MiB from nginx, median MiB/s (ratio to curl): TLS 1.3 OpenSSL 1036 (1.41), rustls 833
 * (1.20); TLS 1.2 OpenSSL 640 (1.69), rustls 596 (1.11). Noisy shared machine: compare ratios.
 * Deno's rustls (rustls.ts) is the fallback when OpenSSL or --allow-ffi is missing, and refuses
 * the fields it cannot honour.
 */
import type { Conn, StreamInfo } from "../adapter/mod.ts";
import type { InboundTlsModel, OutboundTlsModel } from "../config/mod.ts";
import { loadLibssl } from "./libssl.ts";
import { opensslClient, opensslServer, type TlsClientEngine, type TlsServerEngine } from "./openssl.ts";
import { clientSettings, serverSettings } from "./options.ts";
import { rustlsClient, rustlsServerOptions } from "./rustls.ts";
import { DEFAULT_TRUST, type TrustSettings } from "./store.ts";

/** What the top-level `certificate` object contributes: the roots clients trust. */
export interface TlsEnvironment {
  trust?: TrustSettings;
  /** Force the fallback engine (tests of the refusals). */
  engine?: "openssl" | "rustls";
}

export interface TlsClientLayer {
  wrap(conn: Conn, defaultServerName: string, alpnOverride?: string[], signal?: AbortSignal): Promise<Conn>;
  /** As wrap, with what the handshake settled (negotiated ALPN). */
  connect(conn: Conn, defaultServerName: string, alpnOverride?: string[], signal?: AbortSignal): Promise<{
    conn: Conn;
    info: StreamInfo;
  }>;
}

export function isTlsEnabled(tls: unknown): boolean {
  return typeof tls === "object" && tls !== null && (tls as { enabled?: boolean }).enabled === true;
}

function useOpenssl(env: TlsEnvironment) {
  return env.engine === "rustls" ? null : loadLibssl();
}

export function tlsClientLayer(tls: OutboundTlsModel, env: TlsEnvironment, path = ""): TlsClientLayer {
  const settings = clientSettings(tls, env.trust ?? DEFAULT_TRUST, `${path}/tls`);
  const lib = useOpenssl(env);
  const engine: TlsClientEngine = lib ? opensslClient(lib, settings) : rustlsClient(settings);
  return {
    connect: (conn, name, alpn, signal) => engine.connect(conn, name, alpn, signal),
    wrap: async (conn, name, alpn, signal) => (await engine.connect(conn, name, alpn, signal)).conn,
  };
}

/** Either an engine that accepts TLS over accepted TCP streams, or Deno's own TLS listener. */
export type TlsServerLayer =
  | { kind: "openssl"; engine: TlsServerEngine }
  | { kind: "rustls"; listen(hostname: string, port: number): Deno.TlsListener; handshakeTimeoutMs: number };

export function tlsServerLayer(tls: InboundTlsModel, path = "", env: TlsEnvironment = {}): TlsServerLayer {
  const settings = serverSettings(tls, `${path}/tls`);
  const lib = useOpenssl(env);
  if (lib) return { kind: "openssl", engine: opensslServer(lib, settings) };
  const options = rustlsServerOptions(settings);
  return {
    kind: "rustls",
    handshakeTimeoutMs: settings.handshakeTimeoutMs,
    listen: (hostname, port) => Deno.listenTls({ hostname, port, ...options }),
  };
}
