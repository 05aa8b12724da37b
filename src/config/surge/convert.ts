/**
 * A Surge-style profile → the native JSON document. Each section is read, ignored with a warning
 * (when ignoring it changes neither routing nor security), or an error, as for the native format.
 */
import { Policies } from "../clash/groups.ts";
import type { Json } from "../links/types.ts";
import { SurgeConversion } from "./context.ts";
import { bypassRules, convertDns } from "./dns.ts";
import { convertGeneral } from "./general.ts";
import { convertGroups, groupNames, policyName } from "./groups.ts";
import { convertProxyLines } from "./proxies.ts";
import { RuleSets } from "./rule_sets.ts";
import { convertRules, type RuleEnv } from "./rules.ts";
import { type Profile, type ReadFile, readProfile } from "./source.ts";

const READ = new Set(["General", "Proxy", "Proxy Group", "Rule", "Host"]);
/** Sections whose absence changes no routing and lowers no security. */
const WARN: Record<string, string> = {
  Replica: "request recording is a Surge UI feature",
  MITM: "HTTPS is never decrypted; traffic passes untouched",
  Panel: "a Surge UI feature",
  "SSID Setting": "Wi-Fi specific behaviour is not applied",
};
/** Sections that change requests or routing: ignoring them would be silent. */
const REFUSED: Record<string, string> = {
  "URL Rewrite": "rewriting or redirecting requests is not supported",
  "Header Rewrite": "rewriting HTTP headers is not supported",
  "Body Rewrite": "rewriting HTTP bodies is not supported",
  "Map Local": "answering requests with local data is not supported",
  Script: "scripts are not supported",
  "Proxy Chain": "proxy chains: use underlying-proxy on the proxy line",
  "Snell Server": "a Snell server is not supported",
  "Ponte": "Ponte is not supported",
};

export function convertSurge(text: string, read: ReadFile): SurgeConversion {
  const cv = new SurgeConversion(read);
  const profile = readProfile(text, read);
  for (const p of profile.problems) (p.severity === "error" ? cv.fail : cv.note).call(cv, p.loc, p.message);
  const section = (name: string) => profile.sections.get(name) ?? [];
  checkSections(profile, cv);

  const general = section("General");
  const defaults = convertGeneral(general, cv);
  const proxies = convertProxyLines(section("Proxy"), cv, profile);
  const policies = new Policies(cv, proxies, []);
  groupNames(section("Proxy Group"), cv, policies);
  convertGroups(section("Proxy Group"), cv, policies, profile, {
    url: defaults.proxyTestUrl,
    timeout: defaults.testTimeout,
  });
  convertDns(general, section("Host"), cv, policies);
  bypassRules(general, cv, () => policies.directTag());
  const env: RuleEnv = {
    policy: (name, loc) => policies.target(policyName(name), cv.at(loc)),
    inboundsByPort: (port) =>
      ((cv.doc.inbounds ?? []) as Json[]).filter((i) => i.listen_port === port).map((i) => String(i.tag)),
  };
  const sets = new RuleSets(cv, env);
  convertRules(section("Rule"), cv, env, (r, loc) => sets.condition(r, loc));
  if (cv.get(["route", "final"]) === undefined) cv.set(["route", "final"], policies.directTag());
  return cv;
}

function checkSections(profile: Profile, cv: SurgeConversion): void {
  for (const [name, lines] of profile.sections) {
    if (READ.has(name) || name.startsWith("WireGuard ")) continue;
    const loc = profile.headers.get(name) ?? lines[0].loc;
    if (WARN[name]) cv.note(loc, `[${name}] is ignored: ${WARN[name]}`);
    else if (REFUSED[name]) cv.fail(loc, `[${name}]: ${REFUSED[name]}`);
    else cv.fail(loc, `unknown section [${name}]`);
  }
}
