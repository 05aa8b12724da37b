/** Checks of the control APIs and user limits. */
import type { PathSegment } from "../json/pointer.ts";
import type { Model } from "../model/mod.ts";
import type { Report } from "./report.ts";
import type { Tags } from "./tags.ts";

/** `host:port` whose host is a loopback address or localhost. */
export function isLoopbackHostPort(text: string): boolean {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  if (!m || Number(m[3]) > 65535) return false;
  const host = (m[1] ?? m[2]).toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function checkApis(model: Model, tags: Tags, report: Report, compatApiPath: PathSegment[]): void {
  const api = model.api;
  if (api?.listen !== undefined) {
    if (!isLoopbackHostPort(api.listen)) {
      report.error(
        ["api", "listen"],
        `must be a loopback address and port, such as "127.0.0.1:9091", not "${api.listen}"`,
      );
    }
    if (!api.secret) {
      report.error(["api", "secret"], 'missing required field (the API on "listen" needs a secret)');
    }
  }
  const compat = model.compat_api;
  if (compat) {
    tags.outbounds.need(
      compat.external_ui_download_detour,
      [...compatApiPath, "external_ui_download_detour"],
      report,
    );
    if (
      compat.external_controller !== undefined &&
      !/^(\[[^\]]*\]|[^:]*):\d{1,5}$/.test(compat.external_controller)
    ) {
      report.error(
        [...compatApiPath, "external_controller"],
        `expected "host:port", got "${compat.external_controller}"`,
      );
    }
  }
}

export function checkUserLimits(model: Model, report: Report): void {
  const cacheFile = model.experimental.cache_file?.enabled === true;
  for (const [user, limits] of Object.entries(model.user_limits)) {
    if (limits.quota_bytes !== undefined && !cacheFile) {
      report.error(
        ["user_limits", user, "quota_bytes"],
        'requires "experimental.cache_file" to be enabled (quotas are kept there)',
      );
    }
  }
}
