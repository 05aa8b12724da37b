/**
 * `outbound_providers` (extension): outbounds given together, as mihomo's proxy-providers.
 * `remote` downloads a list, `local` reads a file, `inline` writes the outbounds in place; group
 * outbounds take a provider's outbounds as members through their `providers` field.
 */
import { z } from "zod";
import { strings } from "./common.ts";
import { duration } from "./duration.ts";
import { HttpClientRef } from "./http_clients.ts";
import { Outbound } from "./outbound.ts";

export const HealthCheck = z.strictObject({
  enabled: z.boolean().default(false),
  url: z.string().default("https://www.gstatic.com/generate_204"),
  interval: duration().default(5 * 60_000),
  timeout: duration().default(5_000),
  /** Test only while a group using the provider is in use. */
  lazy: z.boolean().default(true),
});
export type HealthCheckModel = z.output<typeof HealthCheck>;

/** Fields every provider has: which of its outbounds are kept, and their health check. */
const commonShape = {
  tag: z.string().min(1, { error: "tag must not be empty" }),
  /** Regular expressions; an outbound is kept when its tag matches any of them. */
  filter: strings("a regular expression").optional(),
  /** Regular expressions; an outbound is dropped when its tag matches any of them. */
  exclude: strings("a regular expression").optional(),
  /** Outbound types dropped. */
  exclude_type: strings("an outbound type").optional(),
  health_check: HealthCheck.optional(),
};

/** Content of a file or download: native JSON (`{"outbounds": [...]}`), Clash YAML, or share links. */
const format = () => z.enum(["auto", "json", "clash", "links"]).default("auto");

export const RemoteProvider = z.strictObject({
  type: z.literal("remote"),
  ...commonShape,
  url: z.string(),
  format: format(),
  /** Where the last download is kept (relative to the data directory); a name from the tag by default. */
  path: z.string().optional(),
  update_interval: duration().default(86_400_000),
  /** Outbound tag the download goes through (as a rule-set's `download_detour`). */
  download_detour: z.string().optional(),
  http_client: HttpClientRef.optional(),
});

export const LocalProvider = z.strictObject({
  type: z.literal("local"),
  ...commonShape,
  path: z.string(),
  format: format(),
});

export const InlineProvider = z.strictObject({
  type: z.literal("inline"),
  ...commonShape,
  outbounds: z.array(Outbound),
});

export const OutboundProvider = z.discriminatedUnion("type", [RemoteProvider, LocalProvider, InlineProvider]);
export type OutboundProviderModel = z.output<typeof OutboundProvider>;
