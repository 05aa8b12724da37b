/**
 * The roots TLS clients trust: the top-level `certificate` object (store plus inline, file and
 * directory certificates), or a `tls` block's own certificate.
 *
 * Stores: "system" is OpenSSL's default paths (/etc/ssl/certs on Debian); "mozilla" is the
 * Mozilla bundle built into Deno (node:tls rootCertificates, webpki-roots); "none" trusts only the
 * certificates given. "chrome" (the Chrome Root Store) has no copy here, so it is refused rather
 * than silently replaced by another list.
 */
import { rootCertificates } from "node:tls";
import { ConfigError } from "../common/errors.ts";
import type { CertificateModel } from "../config/mod.ts";

export interface TrustSettings {
  store: "system" | "mozilla" | "none";
  /** Extra trusted certificates, PEM (each entry may hold several). */
  certificates: string[];
  /** Where these roots were configured, for error messages. */
  path: string;
}

export const DEFAULT_TRUST: TrustSettings = { store: "system", certificates: [], path: "/certificate" };

/** PEM certificates of the Mozilla bundle. */
export function mozillaRoots(): readonly string[] {
  return rootCertificates;
}

export function trustFromCertificateObject(
  c: CertificateModel | undefined,
  path = "/certificate",
): TrustSettings {
  if (!c) return DEFAULT_TRUST;
  if (c.store === "chrome") {
    throw new ConfigError(
      `${path}/store`,
      '"chrome" (the Chrome Root Store) is not available: use "system", "mozilla" or "none"',
    );
  }
  const certificates: string[] = [];
  if (c.certificate?.length) certificates.push(c.certificate.join("\n"));
  (c.certificate_path ?? []).forEach((file, i) =>
    certificates.push(read(file, `${path}/certificate_path/${i}`))
  );
  (c.certificate_directory_path ?? []).forEach((dir, i) => {
    const where = `${path}/certificate_directory_path/${i}`;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch (e) {
      throw new ConfigError(where, `cannot read directory "${dir}": ${e instanceof Error ? e.message : e}`);
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!e.isFile && !e.isSymlink) continue;
      const text = read(`${dir}/${e.name}`, where);
      if (text.includes("-----BEGIN CERTIFICATE-----")) certificates.push(text);
    }
  });
  return { store: c.store, certificates, path };
}

function read(file: string, path: string): string {
  try {
    return Deno.readTextFileSync(file);
  } catch (e) {
    throw new ConfigError(path, `cannot read "${file}": ${e instanceof Error ? e.message : e}`);
  }
}
