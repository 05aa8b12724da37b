/** Collects cross-reference findings with their JSON pointer. */
import type { PathSegment } from "../json/pointer.ts";
import { toPointer } from "../json/pointer.ts";

export interface Finding {
  path: string;
  message: string;
}

export class Report {
  readonly errors: Finding[] = [];
  readonly warnings: Finding[] = [];
  error(path: readonly PathSegment[], message: string): void {
    this.errors.push({ path: toPointer(path), message });
  }
  warn(path: readonly PathSegment[], message: string): void {
    this.warnings.push({ path: toPointer(path), message });
  }
}

/** Tags of one namespace with the path of the item that defines each. */
export class TagSet {
  readonly #tags = new Map<string, string>();
  constructor(readonly what: string) {}
  /** Adds a tag; reports a duplicate. */
  add(tag: string, path: readonly PathSegment[], report: Report): void {
    const first = this.#tags.get(tag);
    if (first !== undefined) {
      report.error([...path, "tag"], `duplicate ${this.what} tag "${tag}" (also used by ${first})`);
      return;
    }
    this.#tags.set(tag, toPointer(path));
  }
  has(tag: string): boolean {
    return this.#tags.has(tag);
  }
  /** Reports a reference to a tag that does not exist. */
  need(tag: string | undefined, path: readonly PathSegment[], report: Report): void {
    if (tag !== undefined && !this.#tags.has(tag)) report.error(path, `unknown ${this.what} tag "${tag}"`);
  }
  /** Same for each entry of a list field. */
  needAll(tags: readonly string[] | undefined, path: readonly PathSegment[], report: Report): void {
    tags?.forEach((t, i) => this.need(t, [...path, i], report));
  }
}
