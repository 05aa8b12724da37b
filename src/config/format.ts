/**
 * Which format a configuration is written in (spec items 1-3): by extension — `.json` native,
 * `.yaml`/`.yml` Clash, `.conf` always the profile format — otherwise by the text itself.
 */
export type ConfigFormat = "json" | "clash" | "surge";

const CLASH_KEYS =
  /^(proxies|proxy-groups|proxy-providers|rules|rule-providers|mixed-port|socks-port|port|dns|mode|allow-lan|external-controller)\s*:/m;

export function detectFormat(text: string, file?: string): ConfigFormat {
  const name = file?.toLowerCase() ?? "";
  if (name.endsWith(".json") || name.endsWith(".jsonc")) return "json";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "clash";
  if (name.endsWith(".conf")) return "surge";
  const first =
    text.split("\n").map((l) => l.trim()).find((l) => l && !/^(#|;|\/\/)/.test(l) || l.startsWith("#!")) ??
      "";
  if (first.startsWith("{")) return "json";
  if (/^\[[A-Za-z][A-Za-z ]*\]$/.test(first) || first.startsWith("#!")) return "surge";
  if (CLASH_KEYS.test(text)) return "clash";
  return "json";
}
