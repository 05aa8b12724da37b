/** The control API (`api`, extension) and the dashboard-compatible API (`compat_api`). */
import { z } from "zod";
import { strings } from "./common.ts";

export const Api = z
  .strictObject({
    /** Unix socket; relative to the data directory unless absolute; `api.sock` when neither is set. */
    path: z.string().optional(),
    /** Loopback `host:port` only; requires `secret` (checked in validate.ts). */
    listen: z.string().optional(),
    secret: z.string().optional(),
  })
  .transform((v) => (v.path === undefined && v.listen === undefined ? { ...v, path: "api.sock" } : v));
export type ApiModel = z.output<typeof Api>;

/** Also read as `experimental.compat_api` and sing-box's `experimental.clash_api`. */
export const CompatApi = z.strictObject({
  /** `host:port`; unset means the API is not served (`default_mode` still applies). */
  external_controller: z.string().optional(),
  secret: z.string().optional(),
  external_ui: z.string().optional(),
  /** No default in the core: unset means nothing is downloaded. */
  external_ui_download_url: z.string().optional(),
  external_ui_download_detour: z.string().optional(),
  /** CORS origins; any when empty. */
  access_control_allow_origin: strings().default([]),
  access_control_allow_private_network: z.boolean().default(false),
  default_mode: z.string().default("Rule"),
});
export type CompatApiModel = z.output<typeof CompatApi>;
