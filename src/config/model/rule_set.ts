/** Rule-set entries of `route.rule_set`: inline, local file or remote download. */
import { z } from "zod";
import { listable, networkKind, port, strings } from "./common.ts";
import { duration } from "./duration.ts";
import { HttpClientRef } from "./http_clients.ts";

const ports = () => listable(port(), "a port number");

/** Headless rule: the conditions a rule-set file may hold. */
const headlessShape = {
  type: z.literal("default").optional(),
  query_type: listable(z.union([z.int().min(0).max(65535), z.string()]), "a query type").optional(),
  network: listable(z.enum(["tcp", "udp", "icmp"]), '"tcp", "udp" or "icmp"').optional(),
  domain: strings().optional(),
  domain_suffix: strings().optional(),
  domain_keyword: strings().optional(),
  domain_regex: strings().optional(),
  source_ip_cidr: strings().optional(),
  ip_cidr: strings().optional(),
  source_port: ports().optional(),
  source_port_range: strings().optional(),
  port: ports().optional(),
  port_range: strings().optional(),
  process_name: strings().optional(),
  process_path: strings().optional(),
  process_path_regex: strings().optional(),
  package_name: strings().optional(),
  package_name_regex: strings().optional(),
  network_type: listable(networkKind(), "a network type").optional(),
  network_is_expensive: z.boolean().optional(),
  network_is_constrained: z.boolean().optional(),
  wifi_ssid: strings().optional(),
  wifi_bssid: strings().optional(),
  invert: z.boolean().default(false),
};

export const HeadlessDefaultRule = z
  .strictObject(headlessShape)
  .transform((v) => ({ ...v, type: "default" as const }));
export type HeadlessDefaultRuleModel = z.output<typeof HeadlessDefaultRule>;

export interface HeadlessLogicalRuleModel {
  type: "logical";
  mode: "and" | "or";
  rules: HeadlessRuleModel[];
  invert: boolean;
}
export type HeadlessRuleModel = HeadlessDefaultRuleModel | HeadlessLogicalRuleModel;

const HeadlessLogicalRule: z.ZodType<HeadlessLogicalRuleModel> = z.strictObject({
  type: z.literal("logical"),
  mode: z.enum(["and", "or"]),
  get rules() {
    return z.array(HeadlessRule).min(1, { error: "a logical rule needs at least one nested rule" });
  },
  invert: z.boolean().default(false),
});

export const HeadlessRule: z.ZodType<HeadlessRuleModel> = z.lazy(() =>
  z.discriminatedUnion("type", [HeadlessDefaultRule, HeadlessLogicalRule as never])
);

const tag = () => z.string().min(1, { error: "tag must not be empty" });
/** `source` and `binary` are sing-box's; the Clash rule-provider formats are extensions. */
const format = () => z.enum(["source", "binary", "clash-yaml", "clash-text", "mrs"]);
/** Extension: what a Clash-format rule-set's lines are (mihomo's `behavior`). */
const behavior = () => z.enum(["domain", "ipcidr", "classical"]).optional();
type Format = z.output<ReturnType<typeof format>>;

/** `format` may be left out when the path or URL ends in `.json` or `.srs`. */
function formatOf(location: string): "source" | "binary" | undefined {
  const clean = location.split(/[?#]/)[0].toLowerCase();
  if (clean.endsWith(".json")) return "source";
  if (clean.endsWith(".srs")) return "binary";
  return undefined;
}

function fillFormat<T extends { format?: Format; behavior?: string }>(
  v: T,
  location: string,
  ctx: z.RefinementCtx,
) {
  const f: Format | undefined = v.format ?? formatOf(location);
  if (f !== "source" && f !== "binary" && f !== undefined && v.behavior === undefined) {
    ctx.addIssue({ code: "custom", path: ["behavior"], message: `the "${f}" format needs "behavior"` });
    return z.NEVER;
  }
  if (f === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["format"],
      message: 'missing required field (the file name does not end in ".json" or ".srs")',
    });
    return z.NEVER;
  }
  return { ...v, format: f };
}

export const InlineRuleSet = z.strictObject({
  type: z.literal("inline"),
  tag: tag(),
  rules: z.array(HeadlessRule),
});

export const LocalRuleSet = z
  .strictObject({
    type: z.literal("local"),
    tag: tag(),
    format: format().optional(),
    behavior: behavior(),
    path: z.string(),
  })
  .transform((v, ctx) => fillFormat(v, v.path, ctx));

export const RemoteRuleSet = z
  .strictObject({
    type: z.literal("remote"),
    tag: tag(),
    format: format().optional(),
    behavior: behavior(),
    url: z.string(),
    /** Deprecated in sing-box 1.14 (use `http_client`); still honoured. */
    download_detour: z.string().optional(),
    http_client: HttpClientRef.optional(),
    update_interval: duration().default(86_400_000),
  })
  .transform((v, ctx) => fillFormat(v, v.url, ctx));

export const RuleSet = z.discriminatedUnion("type", [InlineRuleSet, LocalRuleSet, RemoteRuleSet]);
export type RuleSetModel = z.output<typeof RuleSet>;
