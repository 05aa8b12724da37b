/**
 * Port conditions (sing-box rule_item_port.go, rule_item_port_range.go). `port` and `port_range`
 * OR together as the destination-port group; the `source_` pair as the source-port group.
 */
import { ConfigError } from "../../common/errors.ts";
import { portList, stringList } from "./fields.ts";
import type { CompileContext, ConditionDef, Predicate, RuleInput } from "./types.ts";

function portSet(field: string, source: boolean): ConditionDef {
  return {
    fields: [field],
    group: source ? "source_port" : "destination_port",
    compile(rule, ctx): Predicate {
      const ports = new Set(portList(rule, field, ctx));
      return source ? (m) => ports.has(m.source.port) : (m) => ports.has(m.destination.port);
    },
  };
}

/**
 * Parses "start:end", ":end" (from 0) and "start:" (to 65535) as sing-box does. A range whose
 * start is above its end is accepted and never matches, as in sing-box.
 */
export function parsePortRange(text: string): [number, number] | undefined {
  const colon = text.indexOf(":");
  if (colon < 0) return undefined;
  const startText = text.slice(0, colon);
  const endText = text.slice(colon + 1);
  const start = startText === "" ? 0 : parsePort(startText);
  const end = endText === "" ? 65535 : parsePort(endText);
  return start === undefined || end === undefined ? undefined : [start, end];
}

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= 65535 ? n : undefined;
}

function compileRanges(rule: RuleInput, field: string, ctx: CompileContext): Int32Array {
  const texts = stringList(rule, field, ctx);
  const bounds = new Int32Array(texts.length * 2);
  texts.forEach((text, i) => {
    const range = parsePortRange(text);
    if (!range) {
      throw new ConfigError(
        `${ctx.path}/${field}/${i}`,
        `invalid port range "${text}": expected "start:end", ":end" or "start:"`,
      );
    }
    bounds[i * 2] = range[0];
    bounds[i * 2 + 1] = range[1];
  });
  return bounds;
}

function portRange(field: string, source: boolean): ConditionDef {
  return {
    fields: [field],
    group: source ? "source_port" : "destination_port",
    compile(rule, ctx): Predicate {
      const bounds = compileRanges(rule, field, ctx);
      const inRange = (port: number) => {
        for (let i = 0; i < bounds.length; i += 2) {
          if (port >= bounds[i] && port <= bounds[i + 1]) return true;
        }
        return false;
      };
      return source ? (m) => inRange(m.source.port) : (m) => inRange(m.destination.port);
    },
  };
}

export const sourcePortCondition: ConditionDef = portSet("source_port", true);
export const sourcePortRangeCondition: ConditionDef = portRange("source_port_range", true);
export const portCondition: ConditionDef = portSet("port", false);
export const portRangeCondition: ConditionDef = portRange("port_range", false);
