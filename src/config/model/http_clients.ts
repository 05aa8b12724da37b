/**
 * HTTP clients (sing-box 1.14 `http_clients` and `http_client` fields): how the engine fetches
 * over HTTP (rule-sets, providers, dashboards).
 */
import { z } from "zod";
import { headers } from "./common.ts";
import { dialShape } from "./dial.ts";
import { Tls } from "./tls.ts";

const httpClientShape = {
  /** `go` is the only engine we have; `apple` is a platform engine of the reference. */
  engine: z.enum(["go", "apple"]).default("go"),
  version: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: "expected 1, 2 or 3" }).default(2),
  disable_version_fallback: z.boolean().optional(),
  headers: headers().optional(),
  /** Refused by the reference table until TLS is implemented. */
  tls: Tls.optional(),
  ...dialShape,
};

/** An item of the top-level `http_clients` array. */
export const HttpClientItem = z.strictObject({
  tag: z.string().min(1, { error: "tag must not be empty" }),
  ...httpClientShape,
});
export type HttpClientModel = z.output<typeof HttpClientItem>;

/** An inline client. */
export const HttpClientObject = z.strictObject(httpClientShape);
export type HttpClientOptions = z.output<typeof HttpClientObject>;

/** An `http_client` field: a tag of `http_clients` or an inline client (the model keeps both forms). */
export const HttpClientRef = z.union([z.string(), HttpClientObject], {
  error: "expected an HTTP client tag or an HTTP client object",
});
export type HttpClientRefModel = z.output<typeof HttpClientRef>;
