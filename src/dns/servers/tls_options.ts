/**
 * The parts of a DNS server's `tls` block the encrypted transports honour: `server_name`, and the
 * CA certificates (`certificate`, `certificate_path`) trusted on top of the system roots.
 */
import type { TlsModel } from "../../config/model/tls.ts";
import { ConfigError, UnsupportedError } from "../../common/errors.ts";

export interface ClientTls {
  /** Name sent in SNI and checked against the certificate. */
  serverName: string;
  caCerts?: string[];
}

function list(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

export function clientTls(
  tag: string,
  server: string,
  tls: TlsModel | undefined,
  certificates: readonly string[] = [],
): ClientTls {
  const block = (tls ?? {}) as Record<string, unknown>;
  if (block.insecure === true) {
    throw new UnsupportedError(
      `DNS server "${tag}": "tls.insecure" is not supported: Deno cannot skip certificate verification per connection`,
    );
  }
  const caCerts = [...certificates];
  // sing-box's `certificate` is the PEM text, one string per line or all in one.
  const inline = list(block.certificate);
  if (inline.length > 0) caCerts.push(inline.join("\n"));
  for (const path of list(block.certificate_path)) {
    try {
      caCerts.push(Deno.readTextFileSync(path));
    } catch (e) {
      throw new ConfigError("", `DNS server "${tag}": cannot read "tls.certificate_path" "${path}": ${e}`);
    }
  }
  const serverName = typeof block.server_name === "string" && block.server_name ? block.server_name : server;
  return { serverName, caCerts: caCerts.length > 0 ? caCerts : undefined };
}
