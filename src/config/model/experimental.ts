/** The `experimental` object: cache file and the compat API (moved to top-level `compat_api`). */
import { z } from "zod";
import { CompatApi } from "./api.ts";
import { duration } from "./duration.ts";

export const CacheFile = z.strictObject({
  enabled: z.boolean().default(false),
  /** Relative to the data directory unless absolute. */
  path: z.string().default("cache.db"),
  cache_id: z.string().optional(),
  store_fakeip: z.boolean().default(false),
  /** Deprecated in sing-box 1.14; still honoured. */
  store_rdrc: z.boolean().default(false),
  rdrc_timeout: duration().default(7 * 86_400_000),
});
export type CacheFileModel = z.output<typeof CacheFile>;

export const Experimental = z.strictObject({
  cache_file: CacheFile.optional(),
  clash_api: CompatApi.optional(),
  compat_api: CompatApi.optional(),
  /** Dropped with a warning by the reference table. */
  v2ray_api: z.looseObject({}).optional(),
});

/** The model keeps only the cache file here; the compat API object is top-level `compat_api`. */
export interface ExperimentalModel {
  cache_file?: CacheFileModel;
}
