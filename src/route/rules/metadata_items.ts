/**
 * Conditions on plain metadata fields, each an exact-match set (sing-box rule_item_inbound.go,
 * rule_item_network.go, rule_item_auth_user.go, rule_item_protocol.go, rule_item_client.go), and
 * `ip_version` (rule_item_ipversion.go). Each stands alone in the rule (ANDed with the rest).
 */
import type { Metadata } from "../../adapter/metadata.ts";
import { ConfigError } from "../../common/errors.ts";
import { parseIpInto } from "../../common/ip.ts";
import { stringList } from "./fields.ts";
import type { ConditionDef, Predicate } from "./types.ts";

/** A condition that the metadata value picked by `read` is one of the listed strings. */
function stringSet(field: string, read: (m: Metadata) => string | undefined): ConditionDef {
  return {
    fields: [field],
    group: "item",
    compile(rule, ctx): Predicate {
      const values = stringList(rule, field, ctx);
      if (values.length === 1) {
        const only = values[0];
        return (m) => read(m) === only;
      }
      const set = new Set(values);
      return (m) => {
        const v = read(m);
        return v !== undefined && set.has(v);
      };
    },
  };
}

export const inboundCondition: ConditionDef = stringSet("inbound", (m) => m.inbound);
export const networkCondition: ConditionDef = stringSet("network", (m) => m.network);
export const authUserCondition: ConditionDef = stringSet("auth_user", (m) => m.user);
export const protocolCondition: ConditionDef = stringSet("protocol", (m) => m.protocol);
export const clientCondition: ConditionDef = stringSet("client", (m) => m.client);

/**
 * `ip_version`: the family of the destination when it is an IP literal (mapped IPv4 counts as 4).
 * sing-box also uses the inbound's packet family (TUN); we fall back to the original destination,
 * which is where that family shows once a sniffed domain replaced the address.
 */
export const ipVersionCondition: ConditionDef = {
  fields: ["ip_version"],
  group: "item",
  compile(rule, ctx): Predicate {
    const version = rule.ip_version;
    if (version !== 4 && version !== 6) {
      throw new ConfigError(
        `${ctx.path}/ip_version`,
        `invalid IP version ${JSON.stringify(version)}: expected 4 or 6`,
      );
    }
    const scratch = new Uint32Array(4);
    return (m) => {
      const v = parseIpInto(m.destination.host, scratch);
      if (v !== 0) return v === version;
      const original = m.originalDestination;
      return original !== undefined && parseIpInto(original.host, scratch) === version;
    };
  },
};
