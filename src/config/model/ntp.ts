/**
 * The `ntp` object: time is measured against an NTP server and used by protocols that check time
 * and by certificate verification; the system clock is never set.
 */
import { z } from "zod";
import { serverPort } from "./common.ts";
import { dialShape } from "./dial.ts";
import { duration } from "./duration.ts";

export const Ntp = z.strictObject({
  enabled: z.boolean().default(false),
  /** Best an IP address or a name resolved over plain DNS (see the spec, validation rule 9). */
  server: z.string().default("time.apple.com"),
  server_port: serverPort().default(123),
  interval: duration().default(30 * 60_000),
  ...dialShape,
});
export type NtpModel = z.output<typeof Ntp>;
