/**
 * The sniffed name as a domain, or undefined when it is not one (an IP literal, empty, bad characters).
 * Follows Go's `net.isDomainName`, which sing-box uses before it trusts a sniffed name: labels of 1-63
 * letters, digits, '-' or '_', no label starting or ending with '-', at most 253 characters, not all
 * digits and dots. One trailing dot is dropped and the result is lower-cased.
 */
export function normalizeDomain(name: string): string | undefined {
  const s = name.endsWith(".") ? name.slice(0, -1) : name;
  if (s.length === 0 || s.length > 253) return undefined;
  let nonNumeric = false;
  let labelLen = 0;
  let last = 0x2e; // '.'
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const lower = c | 0x20;
    if (lower >= 0x61 && lower <= 0x7a || c === 0x5f) {
      nonNumeric = true;
      labelLen++;
    } else if (c >= 0x30 && c <= 0x39) {
      labelLen++;
    } else if (c === 0x2d) {
      if (last === 0x2e) return undefined;
      nonNumeric = true;
      labelLen++;
    } else if (c === 0x2e) {
      if (last === 0x2e || last === 0x2d) return undefined;
      labelLen = 0;
    } else {
      return undefined;
    }
    if (labelLen > 63) return undefined;
    last = c;
  }
  if (last === 0x2d || last === 0x2e || !nonNumeric) return undefined;
  return s.toLowerCase();
}
