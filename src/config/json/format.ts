/**
 * `svc format`: the input as canonical JSON (comments and trailing commas gone, 2-space
 * indentation, keys in the order written). Syntax errors, duplicate and unknown fields throw;
 * other problems are left to `svc check`.
 */
import type { Node } from "jsonc-parser";
import { ConfigError, ConfigErrors } from "../../common/errors.ts";
import { checkJson } from "./load.ts";
import { parseJsonc } from "./parse.ts";

export function formatJsonc(text: string): string {
  const parsed = parseJsonc(text);
  const blocking = parsed.errors.length > 0
    ? parsed.errors
    : checkJson(text).errors.filter((e) =>
      e.path === "" || e.message.startsWith("unknown field") || e.message === "duplicate field"
    );
  if (blocking.length > 0 || !parsed.tree) {
    throw new ConfigErrors(blocking.map((e) => new ConfigError(e.path, e.message, e.line)));
  }
  return render(parsed.tree, "") + "\n";
}

function render(node: Node, indent: string): string {
  const inner = indent + "  ";
  switch (node.type) {
    case "object": {
      const props = node.children ?? [];
      if (props.length === 0) return "{}";
      const parts = props.map((p) => {
        const [k, v] = p.children ?? [];
        return `${inner}${JSON.stringify(k?.value)}: ${v ? render(v, inner) : "null"}`;
      });
      return `{\n${parts.join(",\n")}\n${indent}}`;
    }
    case "array": {
      const items = node.children ?? [];
      if (items.length === 0) return "[]";
      return `[\n${items.map((c) => inner + render(c, inner)).join(",\n")}\n${indent}]`;
    }
    default:
      return JSON.stringify(node.value);
  }
}
