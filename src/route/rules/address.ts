/**
 * IP address conditions (sing-box rule_item_cidr.go, rule_item_ip_is_private.go).
 *
 * Source items (`source_ip_cidr`, `source_ip_is_private`) look at the source address. Destination
 * items (`ip_cidr`, `ip_is_private`) look at the destination when it is an IP literal, else at any
 * of the addresses a `resolve` action found; with neither, they do not match. Mapped IPv4 counts
 * as IPv4 (sing-box unmaps addresses).
 */
import type { Metadata } from "../../adapter/metadata.ts";
import { CidrSetBuilder } from "../../common/cidr_set.ts";
import { ConfigError, UnsupportedError } from "../../common/errors.ts";
import { type IpVersion, isPrivateWords, parseIpInto } from "../../common/ip.ts";
import { stringList } from "./fields.ts";
import type { ConditionDef, Predicate } from "./types.ts";

type WordsTest = (version: IpVersion, words: Uint32Array) => boolean;

function onSource(test: WordsTest): Predicate {
  const scratch = new Uint32Array(4);
  return (m: Metadata) => {
    const v = parseIpInto(m.source.host, scratch);
    return v !== 0 && test(v, scratch);
  };
}

function onDestination(test: WordsTest): Predicate {
  const scratch = new Uint32Array(4);
  return (m: Metadata) => {
    const v = parseIpInto(m.destination.host, scratch);
    if (v !== 0) return test(v, scratch);
    const resolved = m.resolvedAddresses;
    if (resolved === undefined) return false;
    for (let i = 0; i < resolved.length; i++) {
      const rv = parseIpInto(resolved[i], scratch);
      if (rv !== 0 && test(rv, scratch)) return true;
    }
    return false;
  };
}

function cidr(field: string, source: boolean): ConditionDef {
  return {
    fields: [field],
    group: source ? "source_address" : "destination_ip",
    compile(rule, ctx): Predicate {
      const builder = new CidrSetBuilder();
      stringList(rule, field, ctx).forEach((text, i) => {
        if (builder.add(text)) return;
        // sing-box also takes "::1/::ffff" (interface id under a mask), which we do not yet.
        if (/^[^/]*:[^/]*\/[^/]*:[^/]*$/.test(text)) {
          throw new UnsupportedError(
            `${ctx.label} ${field} form "${text}" (address/mask) is not supported yet`,
          );
        }
        throw new ConfigError(`${ctx.path}/${field}/${i}`, `invalid IP prefix "${text}"`);
      });
      const set = builder.build();
      const test: WordsTest = (v, w) => set.hasWords(v, w);
      return source ? onSource(test) : onDestination(test);
    },
  };
}

function isPrivate(field: string, source: boolean): ConditionDef {
  return {
    fields: [field],
    group: source ? "source_address" : "destination_ip",
    compile(): Predicate {
      return source ? onSource(isPrivateWords) : onDestination(isPrivateWords);
    },
  };
}

export const sourceIpCidrCondition: ConditionDef = cidr("source_ip_cidr", true);
export const sourceIpIsPrivateCondition: ConditionDef = isPrivate("source_ip_is_private", true);
export const ipCidrCondition: ConditionDef = cidr("ip_cidr", false);
export const ipIsPrivateCondition: ConditionDef = isPrivate("ip_is_private", false);
