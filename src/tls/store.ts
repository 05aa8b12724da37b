/**
 * The roots TLS clients trust: the top-level `certificate` object (store plus inline, file and
 * directory certificates), or a `tls` block's own certificate.
 *
 * Stores: "system" is OpenSSL's default paths (/etc/ssl/certs on Debian); "mozilla" is the
 * Mozilla bundle built into Deno (node:tls rootCertificates, webpki-roots); "none" trusts only the
 * certificates given. "chrome" is the Chrome Root Store's anchors (chrome_roots.ts) found in the
 * Mozilla bundle, handed on as explicit certificates with no other store.
 */
import { X509Certificate } from "node:crypto";
import { rootCertificates } from "node:tls";
import { CHROME_ROOT_SHA256 } from "./chrome_roots.ts";
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

/** PEM certificates of the Mozilla bundle that the Chrome Root Store also lists. */
export function chromeRoots(): string[] {
  return rootCertificates.filter((pem) => {
    try {
      return CHROME_ROOT_SHA256.has(
        new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase(),
      );
    } catch {
      return false;
    }
  });
}

export function trustFromCertificateObject(
  c: CertificateModel | undefined,
  path = "/certificate",
): TrustSettings {
  if (!c) return DEFAULT_TRUST;
  const certificates: string[] = c.store === "chrome" ? chromeRoots() : [];
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
  return { store: c.store === "chrome" ? "none" : c.store, certificates, path };
}

function read(file: string, path: string): string {
  try {
    return Deno.readTextFileSync(file);
  } catch (e) {
    throw new ConfigError(path, `cannot read "${file}": ${e instanceof Error ? e.message : e}`);
  }
}
