/**
 * Splits one Clash rule line: `TYPE,PAYLOAD,TARGET[,PARAM...]`, where the payload of AND/OR/NOT is
 * a parenthesized list that itself contains commas: `AND,((DOMAIN,a.com),(NETWORK,UDP)),DIRECT`.
 */

export interface RuleLine {
  type: string;
  payload: string;
  /** Absent for the inner rules of a logical payload and for a bare MATCH. */
  target?: string;
  params: string[];
}

const LOGICAL = new Set(["AND", "OR", "NOT"]);

export function splitRuleLine(line: string, withTarget = true): RuleLine {
  const text = line.trim();
  const comma = text.indexOf(",");
  const type = (comma < 0 ? text : text.slice(0, comma)).trim().toUpperCase();
  if (comma < 0) return { type, payload: "", params: [] };
  const rest = text.slice(comma + 1);
  if (LOGICAL.has(type) || type === "SUB-RULE") {
    const end = closingParen(rest);
    const payload = rest.slice(0, end + 1).trim();
    const after = rest.slice(end + 1).replace(/^\s*,/, "").split(",").map((s) => s.trim()).filter(Boolean);
    return {
      type,
      payload,
      target: withTarget ? after[0] : undefined,
      params: after.slice(withTarget ? 1 : 0),
    };
  }
  const parts = rest.split(",").map((s) => s.trim());
  if (type === "MATCH" || type === "FINAL") {
    return { type, payload: "", target: parts[0], params: parts.slice(1) };
  }
  if (!withTarget) return { type, payload: parts[0], params: parts.slice(1) };
  return { type, payload: parts[0], target: parts[1], params: parts.slice(2) };
}

/** Index of the parenthesis that closes the one `text` starts with; throws when unbalanced. */
function closingParen(text: string): number {
  const start = text.indexOf("(");
  if (start < 0 || text.slice(0, start).trim() !== "") throw new SyntaxError("expected a parenthesized list");
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  throw new SyntaxError("unbalanced parentheses");
}

/** The inner rules of a logical payload: `((A,x),(B,y))` → ["A,x", "B,y"]. */
export function logicalItems(payload: string): string[] {
  const inner = payload.trim();
  if (!inner.startsWith("(") || !inner.endsWith(")")) throw new SyntaxError("expected a parenthesized list");
  const body = inner.slice(1, -1).trim();
  const items: string[] = [];
  let depth = 0, start = -1;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === "(") {
      if (depth++ === 0) start = i + 1;
    } else if (ch === ")") {
      if (--depth === 0) items.push(body.slice(start, i).trim());
      if (depth < 0) throw new SyntaxError("unbalanced parentheses");
    } else if (depth === 0 && ch !== "," && ch.trim() !== "") {
      throw new SyntaxError(`unexpected "${ch}" between rules`);
    }
  }
  if (depth !== 0) throw new SyntaxError("unbalanced parentheses");
  if (items.length === 0) throw new SyntaxError("a logical rule needs at least one rule");
  return items;
}
