/**
 * Fallback engine for machines without OpenSSL 3 (or without --allow-ffi): Deno's own rustls.
 * It has no per-connection insecure mode, version or cipher choice, pins, client certificates,
 * exclusive trust, or TLS server over an existing stream, so every such field is refused with a
 * ConfigError naming it, rather than honoured in part.
 */
import { ConfigError } from "../common/errors.ts";
import { tlsClient } from "./client.ts";
import type { TlsClientEngine } from "./openssl.ts";
import type { ClientSettings, CommonSettings, ServerSettings } from "./options.ts";

const WHY = "needs OpenSSL 3 (libssl.so.3) and --allow-ffi, which this run does not have";

function refuseCommon(s: CommonSettings): void {
  // rustls speaks TLS 1.2 and 1.3 only: bounds that allow both are honoured as they are.
  if (s.minVersion && s.minVersion !== "1.2" && s.minVersion !== "1.0" && s.minVersion !== "1.1") {
    throw new ConfigError(`${s.path}/min_version`, WHY);
  }
  if (s.maxVersion && s.maxVersion !== "1.3") throw new ConfigError(`${s.path}/max_version`, WHY);
  if (s.cipherSuites?.length) throw new ConfigError(`${s.path}/cipher_suites`, WHY);
  if (s.curves?.length) throw new ConfigError(`${s.path}/curve_preferences`, WHY);
}

export function rustlsClient(s: ClientSettings): TlsClientEngine {
  refuseCommon(s);
  if (s.insecure) throw new ConfigError(`${s.path}/insecure`, WHY);
  if (s.disableSni) throw new ConfigError(`${s.path}/disable_sni`, WHY);
  if (s.pins.length) throw new ConfigError(`${s.path}/certificate_public_key_sha256`, WHY);
  if (s.clientCertificate) throw new ConfigError(`${s.path}/client_certificate`, WHY);
  // Deno adds caCerts to its roots; a block's own certificate must replace them.
  if (s.trust?.store === "none") throw new ConfigError(s.trust.path, WHY);
  const caCerts = s.trust?.certificates.length ? s.trust.certificates : undefined;
  return {
    async connect(inner, defaultName, alpnOverride) {
      const tls = await tlsClient(inner, {
        serverName: s.serverName ?? defaultName,
        caCerts,
        alpn: alpnOverride ?? (s.alpn.length ? s.alpn : undefined),
      });
      const hs = await tls.handshake();
      return { conn: tls, info: { alpn: hs.alpnProtocol ?? undefined } };
    },
  };
}

/** Checks a server block can run on Deno.listenTls; returns its listen options. */
export function rustlsServerOptions(
  s: ServerSettings,
): { cert: string; key: string; alpnProtocols?: string[] } {
  refuseCommon(s);
  if (s.clientAuth !== "no") throw new ConfigError(`${s.path}/client_authentication`, WHY);
  return { cert: s.certificate, key: s.key, alpnProtocols: s.alpn.length ? s.alpn : undefined };
}
