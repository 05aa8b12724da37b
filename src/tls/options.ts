/**
 * A `tls` block turned into plain settings a TLS engine applies: files read, pins decoded, and
 * every field the engines cannot honour refused with a ConfigError at its JSON path (a field that
 * changes security is never silently ignored).
 */
import { ConfigError } from "../common/errors.ts";
import type { InboundTlsModel, OutboundTlsModel } from "../config/mod.ts";
import type { TrustSettings } from "./store.ts";

export interface CommonSettings {
  alpn: string[];
  minVersion?: string;
  maxVersion?: string;
  cipherSuites?: string[];
  curves?: string[];
  /** JSON path of the block ("/outbounds/2/tls"), for error messages. */
  path: string;
}

export interface ClientSettings extends CommonSettings {
  /** Fixed server name; else the server's host. */
  serverName?: string;
  disableSni: boolean;
  insecure: boolean;
  /** Roots the server's chain is checked against; absent with pins (they replace CA checks). */
  trust?: TrustSettings;
  /** SHA-256 digests of accepted leaf SubjectPublicKeyInfo (DER). */
  pins: Uint8Array[];
  clientCertificate?: string;
  clientKey?: string;
}

export type ClientAuth = "no" | "request" | "require-any" | "verify-if-given" | "require-and-verify";

export interface ServerSettings extends CommonSettings {
  certificate: string;
  key: string;
  clientAuth: ClientAuth;
  /** CA certificates client certificates are checked against (PEM). */
  clientCas: string[];
  clientPins: Uint8Array[];
  handshakeTimeoutMs: number;
}

const DEFAULT_HANDSHAKE_TIMEOUT_MS = 15_000;

function readText(file: string, path: string): string {
  try {
    return Deno.readTextFileSync(file);
  } catch (e) {
    throw new ConfigError(path, `cannot read "${file}": ${e instanceof Error ? e.message : e}`);
  }
}

/** Inline PEM lines (one entry or one per line) or a file; undefined when neither is set. */
function pem(inline: string[] | undefined, file: string | undefined, path: string, fileField: string) {
  if (inline?.length) return inline.join("\n");
  if (file) return readText(file, `${path}/${fileField}`);
  return undefined;
}

function pins(list: string[] | undefined, path: string): Uint8Array[] {
  return (list ?? []).map((text, i) => {
    let bytes: Uint8Array | undefined;
    try {
      bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
    } catch { /* reported below */ }
    if (bytes?.length !== 32) {
      throw new ConfigError(`${path}/${i}`, `"${text}" is not a base64 SHA-256 digest (32 bytes)`);
    }
    return bytes;
  });
}

function refuseUnsupported(tls: Record<string, unknown>, path: string, fields: string[]): void {
  for (const f of fields) {
    if (tls[f] === true) throw new ConfigError(`${path}/${f}`, `"${f}" is not implemented yet`);
  }
}

function common(tls: OutboundTlsModel | InboundTlsModel, path: string): CommonSettings {
  return {
    alpn: tls.alpn ?? [],
    minVersion: tls.min_version,
    maxVersion: tls.max_version,
    cipherSuites: tls.cipher_suites,
    curves: tls.curve_preferences,
    path,
  };
}

export function clientSettings(
  tls: OutboundTlsModel,
  env: TrustSettings,
  path: string,
): ClientSettings {
  refuseUnsupported(tls, path, ["fragment", "record_fragment"]);
  const own = pem(tls.certificate, tls.certificate_path, path, "certificate_path");
  const pinned = pins(tls.certificate_public_key_sha256, `${path}/certificate_public_key_sha256`);
  if (pinned.length && own) {
    throw new ConfigError(
      `${path}/certificate_public_key_sha256`,
      "certificate_public_key_sha256 replaces certificate checks: remove certificate or certificate_path",
    );
  }
  if (pinned.length && tls.insecure) {
    throw new ConfigError(`${path}/insecure`, "insecure turns off the certificate_public_key_sha256 check");
  }
  const clientCertificate = pem(
    tls.client_certificate,
    tls.client_certificate_path,
    path,
    "client_certificate_path",
  );
  const clientKey = pem(tls.client_key, tls.client_key_path, path, "client_key_path");
  if (!!clientCertificate !== !!clientKey) {
    throw new ConfigError(
      `${path}/${clientCertificate ? "client_key" : "client_certificate"}`,
      "a client certificate needs both client_certificate and client_key (or their _path forms)",
    );
  }
  return {
    ...common(tls, path),
    serverName: tls.server_name || undefined,
    disableSni: tls.disable_sni === true,
    insecure: tls.insecure === true,
    // As sing-box: the block's own certificate replaces the roots (it trusts exactly that server).
    trust: pinned.length
      ? undefined
      : own
      ? { store: "none", certificates: [own], path: `${path}/certificate` }
      : env,
    pins: pinned,
    clientCertificate,
    clientKey,
  };
}

export function serverSettings(tls: InboundTlsModel, path: string): ServerSettings {
  refuseUnsupported(tls, path, ["kernel_tx", "kernel_rx"]);
  const certificate = pem(tls.certificate, tls.certificate_path, path, "certificate_path");
  const key = pem(tls.key, tls.key_path, path, "key_path");
  if (!certificate) throw new ConfigError(path, "a TLS server needs certificate or certificate_path");
  if (!key) throw new ConfigError(path, "a TLS server needs key or key_path");
  const clientCas = [
    ...(tls.client_certificate?.length ? [tls.client_certificate.join("\n")] : []),
    ...(tls.client_certificate_path ?? []).map((f, i) => readText(f, `${path}/client_certificate_path/${i}`)),
  ];
  const clientPins = pins(
    tls.client_certificate_public_key_sha256,
    `${path}/client_certificate_public_key_sha256`,
  );
  const clientAuth = tls.client_authentication ?? "no";
  if (clientAuth === "no" && (clientCas.length || clientPins.length)) {
    throw new ConfigError(
      `${path}/client_authentication`,
      'client certificates are configured but client_authentication is "no": set "verify-if-given" or "require-and-verify"',
    );
  }
  if (
    (clientAuth === "verify-if-given" || clientAuth === "require-and-verify") && !clientCas.length &&
    !clientPins.length
  ) {
    throw new ConfigError(
      `${path}/client_authentication`,
      `"${clientAuth}" needs client_certificate, client_certificate_path or client_certificate_public_key_sha256`,
    );
  }
  return {
    ...common(tls, path),
    certificate,
    key,
    clientAuth,
    clientCas,
    clientPins,
    handshakeTimeoutMs: tls.handshake_timeout ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
  };
}
