/**
 * The OpenSSL engine: a client and a server built from settings, each holding one SSL_CTX and
 * making an OpensslConn per connection. Peer-key pins are checked once the handshake is through.
 */
import type { Conn, StreamInfo } from "../adapter/mod.ts";
import { isIpLiteral } from "../adapter/mod.ts";
import { ProtocolError } from "../common/errors.ts";
import { C, cstr, type Libssl } from "./libssl.ts";
import { alpnWire, clientContext, serverContext, type SslContext } from "./openssl_context.ts";
import { OpensslConn } from "./openssl_conn.ts";
import type { ClientSettings, ServerSettings } from "./options.ts";
import { withDeadline } from "./deadline.ts";

const CLIENT_HANDSHAKE_TIMEOUT_MS = 15_000;

export interface TlsClientEngine {
  connect(inner: Conn, serverName: string, alpnOverride?: string[], signal?: AbortSignal): Promise<TlsStream>;
}

export interface TlsServerEngine {
  accept(inner: Conn): Promise<TlsStream>;
}

/** A TLS stream plus what the handshake settled. */
export interface TlsStream {
  conn: Conn;
  info: StreamInfo & { version?: string };
}

function samePin(digest: Uint8Array | undefined, pins: Uint8Array[]): boolean {
  return !!digest && pins.some((p) => p.every((b, i) => b === digest[i]));
}

export function opensslClient(lib: Libssl, s: ClientSettings): TlsClientEngine {
  const context: SslContext = clientContext(lib, s);
  return {
    async connect(inner, defaultName, alpnOverride, signal) {
      const name = s.serverName ?? defaultName;
      const ssl = lib.ssl.SSL_new(context.ctx);
      if (ssl === null) throw new ProtocolError("TLS: cannot create a connection");
      const conn = new OpensslConn(lib, ssl, inner);
      lib.ssl.SSL_set_connect_state(ssl);
      const ip = isIpLiteral(name);
      // SNI carries names only (RFC 6066); disable_sni still checks the certificate for `name`.
      if (!s.disableSni && !ip) lib.ssl.SSL_ctrl(ssl, C.SSL_CTRL_SET_TLSEXT_HOSTNAME, 0n, cstr(name));
      if (!s.insecure && !s.pins.length) lib.ssl.SSL_set1_host(ssl, cstr(name.replace(/^\[|\]$/g, "")));
      if (alpnOverride) {
        const wire = alpnWire(alpnOverride);
        lib.ssl.SSL_set_alpn_protos(ssl, wire, wire.length);
      }
      try {
        await withDeadline(conn.handshake(), CLIENT_HANDSHAKE_TIMEOUT_MS, signal, () => conn.close());
        if (s.pins.length && !samePin(await conn.peerKeySha256(), s.pins)) {
          throw new ProtocolError(
            `TLS: the certificate of "${name}" does not match certificate_public_key_sha256`,
          );
        }
      } catch (e) {
        conn.close();
        throw e instanceof ProtocolError && e.message.startsWith("TLS handshake")
          ? new ProtocolError(e.message.replace("TLS handshake", `TLS handshake with "${name}"`))
          : e;
      }
      return { conn, info: { alpn: conn.alpn(), version: conn.version() } };
    },
  };
}

export function opensslServer(lib: Libssl, s: ServerSettings): TlsServerEngine {
  const context = serverContext(lib, s);
  return {
    async accept(inner) {
      const ssl = lib.ssl.SSL_new(context.ctx);
      if (ssl === null) throw new ProtocolError("TLS: cannot create a connection");
      const conn = new OpensslConn(lib, ssl, inner);
      lib.ssl.SSL_set_accept_state(ssl);
      try {
        await withDeadline(conn.handshake(), s.handshakeTimeoutMs, undefined, () => conn.close());
        if (s.clientPins.length) {
          const digest = await conn.peerKeySha256();
          // Without a certificate "verify-if-given" lets the client through; with one it must match.
          const optional = s.clientAuth === "verify-if-given" || s.clientAuth === "request";
          if (!(digest === undefined && optional) && !samePin(digest, s.clientPins)) {
            throw new ProtocolError(
              "TLS: the client certificate does not match client_certificate_public_key_sha256",
            );
          }
        }
      } catch (e) {
        conn.close();
        throw e;
      }
      return { conn, info: { alpn: conn.alpn(), serverName: conn.serverName(), version: conn.version() } };
    },
  };
}
