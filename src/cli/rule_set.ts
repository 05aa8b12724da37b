/**
 * `svc rule-set compile|decompile|match`, like sing-box's: compile a `source` JSON file to .srs
 * (next to it, or `-o`), decompile a .srs to JSON, and tell whether a domain or IP matches.
 */
import type { Metadata } from "../adapter/metadata.ts";
import { errorText } from "../common/errors.ts";
import { compileRules } from "../route/rule_set/compile.ts";
import { decodeRuleSet, type RuleSetFormat } from "../route/rule_set/load.ts";
import { formatSourceRuleSet, parseSourceRuleSet } from "../route/rule_set/source.ts";
import { readSrs, writeSrs } from "../route/rule_set/srs.ts";

const USAGE = `Usage:
  svc rule-set compile FILE.json [-o FILE.srs]
  svc rule-set decompile FILE.srs [-o FILE.json]
  svc rule-set match FILE DOMAIN|IP        (format from the extension: .json or .srs)`;

function formatOf(path: string): RuleSetFormat {
  return path.endsWith(".srs") ? "binary" : "source";
}

export async function ruleSetCommand(args: string[], output?: string): Promise<number> {
  const [sub, file, target] = args;
  try {
    if (sub === "compile" && file) {
      const set = parseSourceRuleSet(await Deno.readTextFile(file), file);
      const out = output ?? file.replace(/\.json$/, "") + ".srs";
      await Deno.writeFile(out, writeSrs(set));
      return 0;
    }
    if (sub === "decompile" && file) {
      const text = formatSourceRuleSet(readSrs(await Deno.readFile(file)));
      if (output) await Deno.writeTextFile(output, text);
      else await Deno.stdout.write(new TextEncoder().encode(text));
      return 0;
    }
    if (sub === "match" && file && target) {
      const set = decodeRuleSet(await Deno.readFile(file), formatOf(file), undefined, file);
      const m: Metadata = {
        inbound: "",
        inboundType: "",
        network: "tcp",
        source: { host: "0.0.0.0", port: 0 },
        destination: { host: target, port: 0 },
      };
      const matched = set.rules.findIndex((r) => compileRules([r], file)(m));
      console.log(matched < 0 ? "no match" : `match rule[${matched}]`);
      return matched < 0 ? 1 : 0;
    }
  } catch (e) {
    console.error(`error: ${errorText(e)}`);
    return 1;
  }
  console.error(USAGE);
  return 2;
}
