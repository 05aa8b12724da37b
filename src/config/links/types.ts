/** Shared types and limits of the share-link importer. */
import { SvcError } from "../../common/errors.ts";

/** A sing-box JSON object as produced by the importer (native format, not yet validated). */
export type Json = Record<string, unknown>;

/** A line (or entry) that was not imported, and why. */
export interface LinkProblem {
  /** 1-based line of the entry in the text given (in the decoded text for a base64 body). */
  line: number;
  message: string;
}

/** Why one link or proxy entry cannot be imported; caught per entry by the subscription reader. */
export class LinkError extends SvcError {
  /** The key of a Clash proxy entry the problem is about, to point at its line. */
  readonly key?: string;
  constructor(message: string, key?: string) {
    super("config", message);
    this.key = key;
  }
}

/** Caps that keep hostile input bounded. */
export const LIMITS = {
  /** A whole subscription body, in UTF-16 code units. */
  maxBodyChars: 16 * 1024 * 1024,
  /** One share link. */
  maxLinkChars: 64 * 1024,
  /** Entries imported from one body; the rest are reported once. */
  maxEntries: 50_000,
} as const;

/** Types that sing-box 1.14 writes under `endpoints` rather than `outbounds`. */
export const ENDPOINT_TYPES: ReadonlySet<string> = new Set(["wireguard"]);

/** Drops `undefined` members (shallow), so goldens and printed JSON agree. */
export function compact<T extends Json>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
