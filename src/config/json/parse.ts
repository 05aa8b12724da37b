/**
 * JSONC parsing with jsonc-parser: comments and trailing commas are accepted; syntax errors and
 * duplicate keys are reported with line and column. The tree is kept to locate values by path.
 */
import { getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { PathSegment } from "./pointer.ts";
import { toPointer } from "./pointer.ts";

export interface ParsedJson {
  value: unknown;
  tree: Node | undefined;
  lines: LineIndex;
  /** The first syntax problem (later ones are mostly its echoes): path "" and a line. */
  errors: { path: string; message: string; line?: number }[];
}

const SYNTAX: Record<string, string> = {
  InvalidSymbol: "invalid symbol",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: "expected the end of the text",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character in string",
};

/** Maps offsets to 1-based lines and columns. */
export class LineIndex {
  readonly #starts: number[];
  constructor(text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
    this.#starts = starts;
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0, hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.#starts[lo] + 1 };
  }
}

export function parseJsonc(text: string): ParsedJson {
  const lines = new LineIndex(text);
  const raw: ParseError[] = [];
  const tree = parseTree(text, raw, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: true,
  });
  const errors: ParsedJson["errors"] = [];
  for (const e of raw.slice(0, 1)) {
    const { line, column } = lines.position(e.offset);
    errors.push({
      path: "",
      message: `line ${line}, column ${column}: ${SYNTAX[printParseErrorCode(e.error)] ?? "syntax error"}`,
      line,
    });
  }
  if (errors.length === 0 && tree === undefined) {
    errors.push({ path: "", message: "the configuration is empty" });
  }
  if (errors.length === 0 && tree) duplicateKeys(tree, [], lines, errors);
  return { value: errors.length === 0 && tree ? getNodeValue(tree) : undefined, tree, lines, errors };
}

/** JSON allows repeated keys; a configuration must not (the last one would win silently). */
function duplicateKeys(node: Node, path: PathSegment[], lines: LineIndex, out: ParsedJson["errors"]): void {
  if (node.type === "object") {
    const seen = new Set<string>();
    for (const prop of node.children ?? []) {
      const [keyNode, valueNode] = prop.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      if (seen.has(key)) {
        out.push({
          path: toPointer([...path, key]),
          message: "duplicate field",
          line: lines.position(prop.offset).line,
        });
      }
      seen.add(key);
      if (valueNode) duplicateKeys(valueNode, [...path, key], lines, out);
    }
  } else if (node.type === "array") {
    (node.children ?? []).forEach((child, i) => duplicateKeys(child, [...path, i], lines, out));
  }
}

/** 1-based line of the value at a path, or of its nearest written ancestor; undefined for the root. */
export function lineOf(parsed: ParsedJson, path: readonly string[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const node = nodeAt(parsed.tree, path.slice(0, n));
    if (node) {
      return parsed.lines.position(node.parent?.type === "property" ? node.parent.offset : node.offset).line;
    }
  }
  return undefined;
}

function nodeAt(root: Node | undefined, path: readonly string[]): Node | undefined {
  let node = root;
  for (const seg of path) {
    if (!node) return undefined;
    if (node.type === "array") {
      node = /^\d+$/.test(seg) ? node.children?.[Number(seg)] : undefined;
    } else if (node.type === "object") {
      // The last property of a name wins, as in the parsed value.
      const prop = node.children?.findLast((p) => p.children?.[0]?.value === seg);
      node = prop?.children?.[1];
    } else {
      return undefined;
    }
  }
  return node;
}
