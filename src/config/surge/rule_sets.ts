/**
 * RULE-SET and DOMAIN-SET payloads → native rule sets. The built-in `LAN` and `SYSTEM` sets are
 * the lists Surge's manual publishes (see BUILTIN_SYSTEM). A file beside the profile is read
 * and converted here (an inline rule set, errors at the file's line); a URL becomes a remote rule
 * set in the Clash text format, whose lines have the same syntax.
 */
import type { RuleLine } from "../clash/rule_line.ts";
import { splitRuleLine } from "../clash/rule_line.ts";
import type { Json } from "../links/types.ts";
import type { SurgeConversion } from "./context.ts";
import { condition, type RuleEnv } from "./rules.ts";
import type { Loc } from "./source.ts";

/**
 * Surge's built-in SYSTEM set as its manual lists it: requests macOS and iOS send themselves. Its
 * USER-AGENT lines and `PROCESS-NAME,trustd` match Apple clients only and are left out (svc does
 * not read HTTP user agents); the domains are kept.
 */
const BUILTIN_SYSTEM = {
  domain: [
    "api.smoot.apple.com",
    "captive.apple.com",
    "configuration.apple.com",
    "guzzoni.apple.com",
    "smp-device-content.apple.com",
    "xp.apple.com",
    "aod.itunes.apple.com",
    "mesu.apple.com",
    "api.smoot.apple.cn",
    "gs-loc.apple.com",
    "mvod.itunes.apple.com",
    "streamingaudio.itunes.apple.com",
  ],
  domain_suffix: [
    "ess.apple.com",
    "push-apple.com.akadns.net",
    "push.apple.com",
    "lcdn-locator.apple.com",
    "lcdn-registration.apple.com",
    "ls.apple.com",
  ],
};

/** Surge's built-in LAN set: the `.local` suffix and private address ranges (it resolves names). */
const BUILTIN_LAN = { domain_suffix: ["local"], ip_is_private: true };

const isComment = (t: string) => !t || t.startsWith("#") || t.startsWith(";") || t.startsWith("//");

export class RuleSets {
  readonly #tags = new Map<string, string>();
  constructor(private readonly cv: SurgeConversion, private readonly env: RuleEnv) {}

  /** The condition for a RULE-SET or DOMAIN-SET line; throws a message when it cannot be made. */
  condition(r: RuleLine, loc: Loc): Json {
    const p = r.payload;
    if (r.type === "RULE-SET" && p.toUpperCase() === "LAN") return structuredClone(BUILTIN_LAN);
    if (r.type === "RULE-SET" && p.toUpperCase() === "SYSTEM") return structuredClone(BUILTIN_SYSTEM);
    const key = `${r.type}\u0000${p}`;
    let tag = this.#tags.get(key);
    if (!tag) {
      const name = p.replace(/^.*\//, "").replace(/\?.*$/, "") || r.type.toLowerCase();
      tag = this.cv.uniqueTag(`${r.type === "DOMAIN-SET" ? "domain-set" : "rule-set"}:${name}`);
      const set = /^https?:\/\//i.test(p) ? this.remote(r, tag, loc) : this.local(r, tag, loc);
      this.cv.push(["route", "rule_set"], set, this.cv.at(loc));
      this.#tags.set(key, tag);
    }
    return { rule_set: [tag] };
  }

  private remote(r: RuleLine, tag: string, loc: Loc): Json {
    if (r.type === "DOMAIN-SET") {
      this.cv.note(
        loc,
        `DOMAIN-SET "${r.payload}": a line ".name" is read as subdomains of name only, as mihomo does`,
      );
    }
    return {
      type: "remote",
      tag,
      url: r.payload,
      format: "clash-text",
      behavior: r.type === "DOMAIN-SET" ? "domain" : "classical",
    };
  }

  private local(r: RuleLine, tag: string, loc: Loc): Json {
    let text: string;
    try {
      text = this.cv.read(r.payload);
    } catch (e) {
      throw new Error(`cannot read ${r.type} file "${r.payload}": ${(e as Error).message}`);
    }
    const lines = text.split(/\r?\n/);
    const at = (i: number): Loc => ({ file: r.payload, line: i + 1, top: loc.top, section: loc.section });
    if (r.type === "DOMAIN-SET") {
      const domain: string[] = [], suffix: string[] = [];
      lines.forEach((raw) => {
        const t = raw.trim();
        if (isComment(t)) return;
        if (t.startsWith(".")) suffix.push(t.slice(1));
        else domain.push(t);
      });
      const rule: Json = {};
      if (domain.length) rule.domain = domain;
      if (suffix.length) rule.domain_suffix = suffix;
      return { type: "inline", tag, rules: Object.keys(rule).length ? [rule] : [] };
    }
    const rules: Json[] = [];
    lines.forEach((raw, i) => {
      const t = raw.trim();
      if (isComment(t)) return;
      try {
        const inner = splitRuleLine(t, false);
        if (inner.type === "RULE-SET" || inner.type === "DOMAIN-SET") {
          throw new Error("rule sets cannot nest");
        }
        rules.push(condition(inner, this.env, () => ({})));
      } catch (e) {
        this.cv.fail(at(i), `invalid rule "${t.slice(0, 80)}": ${(e as Error).message}`);
      }
    });
    return { type: "inline", tag, rules };
  }
}
