/**
 * Cross-reference validation of a model (the spec's "Validation rules"): tags exist and are
 * unique, no detour cycles, actions carry only their fields, exclusive route options, API and
 * user-limit rules. Shape, types and durations were checked by the schemas already.
 */
import type { PathSegment } from "./json/pointer.ts";
import type { Model } from "./model/mod.ts";
import { checkDns } from "./validate/dns.ts";
import { checkApis, checkUserLimits } from "./validate/misc.ts";
import { checkOutbounds } from "./validate/outbounds.ts";
import { type Finding, Report } from "./validate/report.ts";
import { checkRoute } from "./validate/route.ts";
import { collectTags } from "./validate/tags.ts";

export type { Finding };

export interface ValidateOptions {
  /** Where the compat API object was written (`compat_api` unless told otherwise). */
  compatApiPath?: PathSegment[];
}

export function validateModel(
  model: Model,
  options: ValidateOptions = {},
): { errors: Finding[]; warnings: Finding[] } {
  const report = new Report();
  const tags = collectTags(model, report);
  checkOutbounds(model, tags, report);
  checkRoute(model, tags, report);
  checkDns(model, tags, report);
  checkApis(model, tags, report, options.compatApiPath ?? ["compat_api"]);
  checkUserLimits(model, report);
  return { errors: report.errors, warnings: report.warnings };
}
