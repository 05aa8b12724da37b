/**
 * SSH: the client's identification line `SSH-2.0-softwareversion SP comments CR LF` (RFC 4253 section
 * 4.2). The client is everything after `SSH-2.0-`, as sing-box reports it.
 */
import { agreesWith, indexOfByte, latin1, startsWith } from "./reader.ts";
import { found, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

/** The identification line is at most 255 characters with its CR LF. */
const MAX_LINE = 255;
const PREFIXES = ["SSH-2.0-", "SSH-1.99-"];

export function sniffSsh(data: Uint8Array): SniffOutcome {
  const prefix = PREFIXES.find((p) => startsWith(data, p));
  if (prefix === undefined) {
    return PREFIXES.some((p) => data.length < p.length && agreesWith(data, p)) ? NEED_MORE : NONE;
  }
  const lf = indexOfByte(data, 0x0a, prefix.length, MAX_LINE);
  if (lf < 0) {
    for (let i = prefix.length; i < Math.min(data.length, MAX_LINE); i++) {
      if (!isLineChar(data[i], i === data.length - 1)) return NONE;
    }
    return data.length < MAX_LINE ? NEED_MORE : NONE;
  }
  const end = data[lf - 1] === 0x0d ? lf - 1 : lf;
  for (let i = prefix.length; i < end; i++) if (!isLineChar(data[i], false)) return NONE;
  if (end === prefix.length) return NONE;
  return found("ssh", undefined, latin1(data.subarray(prefix.length, end)));
}

function isLineChar(c: number, last: boolean): boolean {
  return (c >= 0x20 && c <= 0x7e) || (last && c === 0x0d);
}
