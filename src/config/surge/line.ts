/**
 * Splits Surge's `key = value` lines and their comma lists: `Name = ss, host, 443, k=v, k="a, b"`.
 * Quoted items keep their commas; parentheses (WireGuard `peer = (a = 1, b = 2)`) nest.
 */

/** `key = value` → [key, value]; undefined without "=". */
export function keyValue(text: string): [string, string] | undefined {
  const eq = text.indexOf("=");
  if (eq <= 0) return undefined;
  return [text.slice(0, eq).trim(), text.slice(eq + 1).trim()];
}

/** Top-level comma-separated items, trimmed; quotes and parentheses protect commas. */
export function splitItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0, quote = "", start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"') quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (ch === "," && depth === 0) {
      items.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  items.push(text.slice(start).trim());
  return items.filter((s) => s !== "");
}

const unquote = (s: string) => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

/** A line's items: the leading ones without "=" are positional, the rest named parameters. */
export class Items {
  readonly positional: string[] = [];
  readonly params = new Map<string, string>();
  readonly used = new Set<string>();

  constructor(text: string) {
    for (const item of splitItems(text)) {
      const kv = keyValue(item);
      // A positional base64 password ("abc==") is not a parameter: its "value" is only padding.
      if (kv && /^[a-z0-9-]+$/i.test(kv[0]) && (this.params.size > 0 || !/^=*$/.test(kv[1]))) {
        this.params.set(kv[0].toLowerCase(), unquote(kv[1]));
      } else if (this.params.size === 0) this.positional.push(unquote(item));
      else this.params.set(item.toLowerCase(), "");
    }
  }

  get(key: string): string | undefined {
    this.used.add(key);
    return this.params.get(key);
  }

  flag(key: string): boolean | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    const l = v.toLowerCase();
    if (l === "true" || l === "1" || l === "") return true;
    if (l === "false" || l === "0") return false;
    throw new Error(`"${key}": expected true or false, got "${v}"`);
  }

  int(key: string, min = 0, max = 2 ** 31): number | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    const n = /^\d{1,10}$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= max)) {
      throw new Error(`"${key}": expected a number from ${min} to ${max}, got "${v}"`);
    }
    return n;
  }

  /** Named parameters not read by the converter. */
  unused(): string[] {
    return [...this.params.keys()].filter((k) => !this.used.has(k));
  }
}
