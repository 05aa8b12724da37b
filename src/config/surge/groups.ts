/**
 * `[Proxy Group]` lines → native group outbounds. Members are the positional names, the proxies
 * of a `policy-path` file beside the profile, and with `include-all-proxies` every `[Proxy]`
 * proxy; `policy-regex-filter` keeps those of the last two whose name matches.
 */
import type { Policies } from "../clash/groups.ts";
import type { Json } from "../links/types.ts";
import type { SurgeConversion } from "./context.ts";
import { Items, keyValue } from "./line.ts";
import { convertProxyLines } from "./proxies.ts";
import { type Line, type Profile, readProfile } from "./source.ts";

const TYPES: Record<string, string> = {
  select: "selector",
  "url-test": "urltest",
  fallback: "fallback",
  "load-balance": "load-balance",
};
/** Display and alert parameters: ignoring them changes no routing. */
const DISPLAY = new Set(["hidden", "no-alert", "icon-url", "evaluate-before-use", "include-other-group"]);

export interface GroupDefaults {
  url?: string;
  /** Seconds. */
  timeout?: number;
}

/** Surge policy names → the names the Clash policy table knows. */
export const policyName = (n: string) =>
  ["REJECT-TINYGIF", "REJECT-NO-DROP"].includes(n.toUpperCase()) ? "REJECT" : n;

/** Registers group names first: groups may name groups written later. */
export function groupNames(lines: Line[], cv: SurgeConversion, policies: Policies): void {
  for (const line of lines) {
    const name = keyValue(line.text)?.[0];
    if (!name) continue;
    if (cv.tags.has(name) || policies.groups.has(name)) {
      cv.fail(line.loc, `duplicate name "${name}" (a proxy or group already has it)`);
    } else policies.groups.add(name);
  }
}

export function convertGroups(
  lines: Line[],
  cv: SurgeConversion,
  policies: Policies,
  profile: Profile,
  defaults: GroupDefaults,
): void {
  for (const line of lines) {
    try {
      convertGroup(line, cv, policies, profile, defaults);
    } catch (e) {
      cv.fail(line.loc, (e as Error).message);
    }
  }
}

function convertGroup(
  line: Line,
  cv: SurgeConversion,
  policies: Policies,
  profile: Profile,
  d: GroupDefaults,
) {
  const kv = keyValue(line.text);
  if (!kv) throw new Error(`expected "Name = type, member, ...", got "${line.text.slice(0, 60)}"`);
  const [name, value] = kv;
  const it = new Items(value);
  const [kind = "", ...names] = it.positional;
  const type = TYPES[kind.toLowerCase()];
  if (!type) {
    throw new Error(
      `group "${name}": unknown group type "${kind}": expected select, url-test, fallback or load-balance`,
    );
  }
  const path = cv.at(line.loc);
  const members: string[] = [];
  for (const n of names) {
    const tag = policies.member(policyName(n), path);
    if (tag !== undefined && !members.includes(tag)) members.push(tag);
  }
  let filter: RegExp | undefined;
  const pattern = it.get("policy-regex-filter");
  if (pattern !== undefined) {
    try {
      filter = new RegExp(pattern);
    } catch (e) {
      throw new Error(`group "${name}": invalid policy-regex-filter: ${(e as Error).message}`);
    }
  }
  const keep = (n: string) => !filter || filter.test(n);
  const file = it.get("policy-path");
  if (file) members.push(...policyPath(file, line, cv, profile).filter(keep));
  if (it.flag("include-all-proxies")) {
    members.push(...policies.allProxies().filter((p) => keep(p) && !members.includes(p)));
  }
  if (members.length === 0) throw new Error(`group "${name}" has no members`);
  const out: Json = { type, tag: name, outbounds: members };
  const url = it.get("url") ?? d.url;
  const interval = it.int("interval", 1);
  const timeout = it.int("timeout", 1) ?? d.timeout;
  const tolerance = it.int("tolerance");
  const persistent = it.flag("persistent");
  if (type !== "selector") {
    if (url) out.url = url;
    if (interval) out.interval = `${interval}s`;
    if (timeout) out.timeout = `${timeout}s`;
    if (type === "urltest" && tolerance !== undefined) out.tolerance = tolerance;
    if (type === "load-balance") out.strategy = persistent ? "sticky-sessions" : "round-robin";
  }
  for (const k of it.unused()) {
    if (DISPLAY.has(k)) cv.note(line.loc, `group "${name}": "${k}" is ignored`);
    else if (type === "selector" && ["url", "interval", "timeout", "tolerance"].includes(k)) continue;
    else throw new Error(`group "${name}": unknown parameter "${k}"`);
  }
  cv.tags.add(name);
  cv.push(["outbounds"], out, path);
}

/** A policy-path file: Surge proxy lines, read beside the profile; returns the tags made. */
function policyPath(file: string, line: Line, cv: SurgeConversion, profile: Profile): string[] {
  if (/^[a-z]+:\/\//i.test(file)) {
    throw new Error(
      `policy-path "${file}": downloading policy lists is not supported: save it beside the profile`,
    );
  }
  let text: string;
  try {
    text = cv.read(file);
  } catch (e) {
    throw new Error(`cannot read policy-path file "${file}": ${(e as Error).message}`);
  }
  const inner = readProfile(`[Proxy]\n${text}`, cv.read);
  // Lines of the file keep their own numbers (less the header added above), at the group's line.
  const lines = (inner.sections.get("Proxy") ?? []).map((l) => ({
    text: l.text,
    loc: { file, line: l.loc.line - 1, top: line.loc.top, section: "Proxy" },
  }));
  for (const p of inner.problems) {
    cv.fail({ ...p.loc, file, line: p.loc.line - 1, top: line.loc.top }, p.message);
  }
  return convertProxyLines(lines, cv, profile);
}
