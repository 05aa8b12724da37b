/** `user_limits` (extension): per-user limits across every inbound, keyed by user name. */
import { z } from "zod";

const notZero = () =>
  z.number().check((ctx) => {
    if (ctx.value === 0) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: "must not be 0 (leave the field out to set no limit)",
      });
    } else if (!(ctx.value > 0)) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: "must be greater than zero" });
    }
  });

export const UserLimit = z.strictObject({
  max_connections: z.int().pipe(notZero()).optional(),
  /** Up and down together; requires `experimental.cache_file` (checked in validate.ts). */
  quota_bytes: z.int().pipe(notZero()).optional(),
  /** RFC 3339 timestamp. */
  expire_at: z.string().refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) &&
      !Number.isNaN(Date.parse(s)),
    {
      error: 'expected an RFC 3339 timestamp such as "2030-01-31T00:00:00Z"',
    },
  ).optional(),
  up_mbps: notZero().optional(),
  down_mbps: notZero().optional(),
});
export type UserLimitModel = z.output<typeof UserLimit>;

export const UserLimits = z.record(z.string(), UserLimit);
export type UserLimitsModel = z.output<typeof UserLimits>;
