/** The `log` object. */
import { z } from "zod";

export const LogLevelName = z.enum(["trace", "debug", "info", "warn", "warning", "error", "fatal", "panic"]);

export const Log = z.strictObject({
  disabled: z.boolean().default(false),
  /** `warning` is `warn`; `fatal` and `panic` act as `error` (see common/log.ts parseLogLevel). */
  level: LogLevelName.default("info"),
  /** `compact` (extension) writes the message alone. */
  format: z.enum(["full", "compact"]).default("full"),
  /** File path; unset logs to the console. */
  output: z.string().optional(),
  timestamp: z.boolean().default(false),
});

export type LogModel = z.output<typeof Log>;
