/** The multiplex block. Refused by the reference table when enabled until multiplexing lands. */
import { z } from "zod";

export const OutboundMultiplex = z.looseObject({
  enabled: z.boolean().optional(),
  protocol: z.enum(["smux", "yamux", "h2mux"]).optional(),
});

export const InboundMultiplex = z.looseObject({
  enabled: z.boolean().optional(),
});
