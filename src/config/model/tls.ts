/**
 * The TLS block. Only its shape is accepted for now: the reference table refuses it wherever it
 * appears until TLS is implemented, so the runtime never sees one.
 */
import { z } from "zod";

export const Tls = z
  .looseObject({
    enabled: z.boolean().optional(),
    server_name: z.string().optional(),
  })
  .meta({ description: "TLS block (not implemented yet)" });

export type TlsModel = z.output<typeof Tls>;
