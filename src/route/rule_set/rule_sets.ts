/**
 * The rule-sets of one engine (`route.rule_set`). Inline and local ones load while the engine is
 * built, so a bad or missing file fails before anything listens, naming its path; a local file is
 * reloaded when it changes (a bad new version is logged and the last good one kept). Route and DNS
 * rules hold a RuleSetHandle whose predicate is swapped in place, so reloads need no recompile.
 */
import type { Metadata } from "../../adapter/metadata.ts";
import { ConfigError, errorText } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";
import type { RuleSetModel } from "../../config/model/rule_set.ts";
import type { Predicate } from "../rules/types.ts";
import type { Behavior } from "./clash.ts";
import { compileRules } from "./compile.ts";
import { decodeRuleSet, type RuleSetFormat } from "./load.ts";
import type { PlainRuleSet } from "./types.ts";

export class RuleSetHandle {
  #set: PlainRuleSet = { version: 1, rules: [] };
  #match: Predicate = () => false;
  #matchSource?: Predicate;
  constructor(readonly tag: string, readonly where: string) {}

  /** Compiles and installs `set`; throws (keeping the current rules) when it does not compile. */
  replace(set: PlainRuleSet): void {
    const match = compileRules(set.rules, this.where);
    this.#set = set;
    this.#match = match;
    this.#matchSource = undefined;
  }

  get rules(): PlainRuleSet {
    return this.#set;
  }

  /** Bound (rules keep it as a predicate) and swapped by replace(). */
  readonly match = (m: Metadata): boolean => this.#match(m);

  /** `rule_set_ip_cidr_match_source`: the set's `ip_cidr` items test the source address. */
  readonly matchSource = (m: Metadata): boolean => {
    this.#matchSource ??= compileRules(this.#set.rules, this.where, true);
    return this.#matchSource(m);
  };
}

export interface RuleSetsOptions {
  /** Relative `path`s resolve against it. */
  dataDir: string;
}

function resolvePath(dir: string, path: string): string {
  return path.startsWith("/") ? path : `${dir.replace(/\/$/, "")}/${path}`;
}

export class RuleSets {
  readonly #handles = new Map<string, RuleSetHandle>();
  readonly #local: { handle: RuleSetHandle; file: string; model: RuleSetModel & { type: "local" } }[] = [];
  #watchers: Deno.FsWatcher[] = [];

  /**
   * Loads inline and local sets. A ConfigError naming the entry or file at fault goes to `fail`
   * (the set stays empty, so rules naming it still compile) or, without `fail`, is thrown.
   */
  constructor(
    models: readonly RuleSetModel[],
    readonly options: RuleSetsOptions,
    fail: (e: unknown) => void = (e) => {
      throw e;
    },
    pathPrefix = "/route/rule_set",
  ) {
    models.forEach((m, i) => {
      try {
        this.#add(m, `${pathPrefix}/${i}`);
      } catch (e) {
        fail(e);
      }
    });
  }

  #add(m: RuleSetModel, at: string): void {
    {
      if (this.#handles.has(m.tag)) throw new ConfigError(`${at}/tag`, `duplicate rule-set tag "${m.tag}"`);
      if (m.type === "inline") {
        const handle = new RuleSetHandle(m.tag, at);
        handle.replace({ version: 1, rules: m.rules as never });
        this.#handles.set(m.tag, handle);
      } else if (m.type === "local") {
        const file = resolvePath(this.options.dataDir, m.path);
        const handle = new RuleSetHandle(m.tag, file);
        this.#handles.set(m.tag, handle);
        if (m.format === "mrs") {
          throw new ConfigError(
            `${at}/format`,
            'the "mrs" format (mihomo binary) is not supported: use "clash-yaml", "clash-text" or "binary"',
          );
        }
        let bytes: Uint8Array;
        try {
          bytes = Deno.readFileSync(file);
        } catch (e) {
          throw new ConfigError(`${at}/path`, `cannot read rule-set file "${file}": ${errorText(e)}`);
        }
        handle.replace(decodeRuleSet(bytes, m.format as RuleSetFormat, m.behavior as Behavior, file));
        this.#local.push({ handle, file, model: m });
      } else {
        this.#handles.set(m.tag, new RuleSetHandle(m.tag, at));
        throw new ConfigError(
          `${at}/type`,
          'remote rule-sets are not supported yet: download the file and use "local"',
        );
      }
    }
  }

  get(tag: string): RuleSetHandle | undefined {
    return this.#handles.get(tag);
  }

  get tags(): string[] {
    return [...this.#handles.keys()];
  }

  /** Re-reads a local file; keeps the last good rules when the new content is bad. */
  reload(tag: string, logger?: Logger): boolean {
    const entry = this.#local.find((l) => l.handle.tag === tag);
    if (!entry) return false;
    try {
      const bytes = Deno.readFileSync(entry.file);
      entry.handle.replace(
        decodeRuleSet(
          bytes,
          entry.model.format as RuleSetFormat,
          entry.model.behavior as Behavior,
          entry.file,
        ),
      );
      logger?.info(`rule-set "${tag}" reloaded from "${entry.file}"`);
      return true;
    } catch (e) {
      logger?.error(`rule-set "${tag}": keeping the last good rules: ${errorText(e)}`);
      return false;
    }
  }

  /** Watches local files and reloads them on change. */
  start(logger: Logger): void {
    for (const { handle, file } of this.#local) {
      let watcher: Deno.FsWatcher;
      try {
        // The directory, not the file: editors and `mv` replace the file, which ends a file watch.
        watcher = Deno.watchFs(file.slice(0, file.lastIndexOf("/")) || "/", { recursive: false });
      } catch (e) {
        logger.warn(`rule-set "${handle.tag}": cannot watch "${file}": ${errorText(e)}`);
        continue;
      }
      this.#watchers.push(watcher);
      (async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        for await (const ev of watcher) {
          if (ev.kind === "access" || !ev.paths.some((p) => p === file)) continue;
          // Editors write in bursts: reload once things settle.
          clearTimeout(timer);
          timer = setTimeout(() => this.reload(handle.tag, logger), 50);
        }
        clearTimeout(timer);
      })().catch(() => {});
    }
  }

  close(): void {
    for (const w of this.#watchers) {
      try {
        w.close();
      } catch { /* already closed */ }
    }
    this.#watchers = [];
  }
}
