/**
 * The TLS block (sing-box `shared/tls.md`), outbound (client) and inbound (server) forms. Fields
 * that need the advanced-TLS issue (utls, ech, reality) are refused by the reference table when
 * enabled: a field that changes security is never silently ignored.
 */
import { z } from "zod";
import { strings } from "./common.ts";
import { duration } from "./duration.ts";

const tlsVersion = () => z.enum(["1.0", "1.1", "1.2", "1.3"]);

const commonTlsShape = {
  enabled: z.boolean().default(false),
  server_name: z.string().optional(),
  alpn: strings().optional(),
  min_version: tlsVersion().optional(),
  max_version: tlsVersion().optional(),
  cipher_suites: strings().optional(),
  curve_preferences: strings().optional(),
  /** Inline PEM: lines one per entry or all in one. */
  certificate: strings().optional(),
  certificate_path: z.string().optional(),
  /** Refused by the reference table until the advanced-TLS issue lands. */
  ech: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  reality: z.looseObject({ enabled: z.boolean().optional() }).optional(),
};

export const OutboundTls = z
  .strictObject({
    ...commonTlsShape,
    disable_sni: z.boolean().optional(),
    insecure: z.boolean().optional(),
    certificate_public_key_sha256: strings().optional(),
    client_certificate: strings().optional(),
    client_certificate_path: z.string().optional(),
    client_key: strings().optional(),
    client_key_path: z.string().optional(),
    fragment: z.boolean().optional(),
    fragment_fallback_delay: duration().optional(),
    record_fragment: z.boolean().optional(),
    /** Refused by the reference table until the advanced-TLS issue lands. */
    utls: z.looseObject({ enabled: z.boolean().optional(), fingerprint: z.string().optional() }).optional(),
  })
  .meta({ description: "TLS client block" });

export const InboundTls = z
  .strictObject({
    ...commonTlsShape,
    key: strings().optional(),
    key_path: z.string().optional(),
    client_authentication: z.enum(["no", "request", "require-any", "verify-if-given", "require-and-verify"])
      .optional(),
    client_certificate: strings().optional(),
    client_certificate_path: strings().optional(),
    client_certificate_public_key_sha256: strings().optional(),
    handshake_timeout: duration().optional(),
    kernel_tx: z.boolean().optional(),
    kernel_rx: z.boolean().optional(),
    /** Refused by the reference table (certificate providers are not supported). */
    acme: z.looseObject({}).optional(),
  })
  .meta({ description: "TLS server block" });

/** Kept for the places that accept either form's shape. */
export const Tls = OutboundTls;

export type OutboundTlsModel = z.output<typeof OutboundTls>;
export type InboundTlsModel = z.output<typeof InboundTls>;
export type TlsModel = OutboundTlsModel;
