/** The `route` object. */
import { z } from "zod";
import { listable, networkKind, networkStrategy, routingMark } from "./common.ts";
import { DomainResolver } from "./dial.ts";
import { duration } from "./duration.ts";
import { RouteRuleSchema } from "./route_rule.ts";
import { RuleSet } from "./rule_set.ts";

export const Route = z.strictObject({
  rules: z.array(RouteRuleSchema).default([]),
  rule_set: z.array(RuleSet).default([]),
  /** Outbound tag of the catch-all; the first outbound when unset (filled in top.ts). */
  final: z.string().optional(),
  auto_detect_interface: z.boolean().default(false),
  /** Dropped with a warning by the reference table (Android only). */
  override_android_vpn: z.boolean().optional(),
  default_interface: z.string().optional(),
  default_mark: routingMark().optional(),
  default_domain_resolver: DomainResolver.optional(),
  default_network_strategy: networkStrategy().optional(),
  default_network_type: listable(networkKind(), "a network type").optional(),
  default_fallback_network_type: listable(networkKind(), "a network type").optional(),
  default_fallback_delay: duration().optional(),
  /** Look up the process owning each connection even when no rule needs it. */
  find_process: z.boolean().optional(),
  /** Learn LAN devices' MAC and host names from the neighbour table (sing-box 1.14). */
  find_neighbor: z.boolean().optional(),
  dhcp_lease_files: listable(z.string(), "a file path").optional(),
});

export type RouteModel = z.output<typeof Route>;
