/**
 * The one list of route-rule condition kinds. Adding a kind means adding a ConditionDef here
 * (or replacing its unsupported placeholder); DNS rules build their own list from these parts.
 *
 * Fields that are not listed are not conditions and are ignored here: `invert`, `type`, `mode`,
 * `rules`, the action fields, `no_resolve` (our IP items never resolve a domain anyway) and
 * `rule_set_ip_cidr_match_source` (meaningful only with `rule_set`).
 */
import {
  ipCidrCondition,
  ipIsPrivateCondition,
  sourceIpCidrCondition,
  sourceIpIsPrivateCondition,
} from "./address.ts";
import { domainCondition } from "./domain.ts";
import {
  authUserCondition,
  clientCondition,
  inboundCondition,
  ipVersionCondition,
  networkCondition,
  protocolCondition,
} from "./metadata_items.ts";
import { portCondition, portRangeCondition, sourcePortCondition, sourcePortRangeCondition } from "./port.ts";
import { ipSuffixCondition, sourceIpSuffixCondition } from "./ip_suffix.ts";
import { ruleSetCondition } from "./rule_set.ts";
import type { ConditionDef } from "./types.ts";
import { NOT_YET, unsupportedCondition } from "./unsupported.ts";

export const ROUTE_CONDITIONS: readonly ConditionDef[] = [
  inboundCondition,
  ipVersionCondition,
  networkCondition,
  authUserCondition,
  protocolCondition,
  clientCondition,
  domainCondition,
  sourceIpCidrCondition,
  sourceIpIsPrivateCondition,
  ipCidrCondition,
  ipIsPrivateCondition,
  ipSuffixCondition,
  sourceIpSuffixCondition,
  sourcePortCondition,
  sourcePortRangeCondition,
  portCondition,
  portRangeCondition,
  ruleSetCondition,
  ...NOT_YET.map((field) => unsupportedCondition(field)),
];
