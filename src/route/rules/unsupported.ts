/**
 * Conditions the runtime cannot evaluate yet. Compiling a rule that sets one fails with an
 * UnsupportedError rather than silently never (or always) matching. A later issue that implements
 * one replaces its entry in registry.ts with a real ConditionDef.
 */
import { UnsupportedError } from "../../common/errors.ts";
import type { ConditionDef } from "./types.ts";

/** A placeholder for `field` whose compile throws; `detail` is appended after a colon. */
export function unsupportedCondition(field: string, detail?: string): ConditionDef {
  return {
    fields: [field],
    group: "item",
    compile(_rule, ctx) {
      const suffix = detail ? `: ${detail}` : "";
      throw new UnsupportedError(`${ctx.label} condition "${field}" is not supported yet${suffix}`);
    },
  };
}

/** sing-box fields we do not evaluate yet. */
export const NOT_YET: readonly string[] = [
  "process_name",
  "process_path",
  "process_path_regex",
  "package_name",
  "package_name_regex",
  "user",
  "user_id",
  "clash_mode",
  "compat_mode",
  "network_type",
  "network_is_expensive",
  "network_is_constrained",
  "interface_address",
  "network_interface_address",
  "default_interface_address",
  "wifi_ssid",
  "wifi_bssid",
  "preferred_by",
  "source_mac_address",
  "source_hostname",
  // Extensions of the config model.
  "external",
  "ip_asn",
  "process_name_regex",
  "wifi_ssid_regex",
  "wifi_bssid_regex",
  "network_gateway",
  "network_mcc_mnc",
  // Removed from sing-box in 1.12.0; extensions of the model, backed by data files not read yet.
  "geoip",
  "geosite",
  "source_geoip",
];
