/** The `certificate` object: roots servers are checked against. */
import { z } from "zod";
import { strings } from "./common.ts";

export const Certificate = z.strictObject({
  store: z.enum(["system", "mozilla", "chrome", "none"]).default("system"),
  /** Inline PEM: lines one per entry or all in one. */
  certificate: strings().optional(),
  certificate_path: strings("a file path").optional(),
  certificate_directory_path: strings("a directory path").optional(),
});
export type CertificateModel = z.output<typeof Certificate>;
