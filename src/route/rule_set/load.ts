/** Bytes of a rule-set file in any supported format → its rules. */
import { ConfigError, ProtocolError } from "../../common/errors.ts";
import { type Behavior, parseClashText, parseClashYaml } from "./clash.ts";
import { parseSourceRuleSet } from "./source.ts";
import { readSrs } from "./srs.ts";
import type { PlainRuleSet } from "./types.ts";

export type RuleSetFormat = "source" | "binary" | "clash-yaml" | "clash-text" | "mrs";

/** Decodes `bytes`; `where` (a file path or URL) prefixes error paths. Throws ConfigError. */
export function decodeRuleSet(
  bytes: Uint8Array,
  format: RuleSetFormat,
  behavior: Behavior | undefined,
  where: string,
): PlainRuleSet {
  const text = () => new TextDecoder().decode(bytes);
  switch (format) {
    case "source":
      return parseSourceRuleSet(text(), where);
    case "binary":
      try {
        return readSrs(bytes);
      } catch (e) {
        if (e instanceof ProtocolError) throw new ConfigError(where, e.message);
        throw e;
      }
    case "clash-yaml":
      return parseClashYaml(text(), behavior ?? "classical", where);
    case "clash-text":
      return parseClashText(text(), behavior ?? "classical", where);
    case "mrs":
      throw new ConfigError(
        where,
        'the "mrs" format (mihomo binary) is not supported: use "clash-yaml", "clash-text" or "binary"',
      );
  }
}
