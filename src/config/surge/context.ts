/**
 * The state of one Surge → native conversion. It reuses the Clash `Conversion` (native document,
 * origins, problems); a source path there is `[n]`, the index of a `Loc` in `locs`, so native
 * findings map back to the `.conf` line they came from.
 */
import { Conversion } from "../clash/conversion.ts";
import type { YamlPath } from "../clash/yaml_source.ts";
import type { Loc, ReadFile } from "./source.ts";

export class SurgeConversion extends Conversion {
  readonly locs: Loc[] = [];
  /** Reads files named by the profile (beside it). */
  readonly read: ReadFile;

  constructor(read: ReadFile) {
    super();
    this.read = read;
  }

  /** The source path standing for a line. */
  at(loc: Loc): YamlPath {
    this.locs.push(loc);
    return [this.locs.length - 1];
  }

  fail(loc: Loc, message: string): void {
    this.error(this.at(loc), message);
  }

  note(loc: Loc, message: string): void {
    this.warn(this.at(loc), message);
  }

  locOf(path: YamlPath): Loc | undefined {
    return typeof path[0] === "number" ? this.locs[path[0]] : undefined;
  }
}
