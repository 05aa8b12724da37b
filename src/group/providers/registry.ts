/**
 * The engine's outbound providers. Inline and local sets, and a remote provider's cached body,
 * load while the engine is built (so errors come before anything listens); local files are
 * watched, remote ones re-downloaded every `update_interval`. A body that fails keeps the last
 * good set and logs why. Groups read members through tags(), so a new set is seen at once.
 */
import type { ClientLayerOptions, ClientLayers, Outbound } from "../../adapter/mod.ts";
import { ConfigError, errorText } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";
import type { OutboundProviderModel } from "../../config/model/providers.ts";
import { LIMITS } from "../../config/links/mod.ts";
import type { HealthChecks, HealthTask } from "../health.ts";
import { httpGet } from "./http_get.ts";
import { type BuildOutbound, Provider } from "./provider.ts";

export interface ProvidersOptions {
  logger: Logger;
  build: BuildOutbound;
  /** Top-level outbound tags: a provider member with one of these is renamed `<provider>/<tag>`. */
  topLevel: (tag: string) => boolean;
  /** The outbound a download goes through: `detour`, or the default outbound. */
  downloadVia: (detour?: string) => Outbound | undefined;
  clientLayers(options: ClientLayerOptions): ClientLayers;
  /** Relative paths (local files, remote caches) resolve here. */
  dataDir: string;
  userAgent?: string;
}

const DOWNLOAD_TIMEOUT = 30_000;

function resolvePath(dir: string, path: string): string {
  return path.startsWith("/") ? path : `${dir.replace(/\/$/, "")}/${path}`;
}

export class Providers {
  readonly #providers = new Map<string, Provider>();
  #closers: (() => void)[] = [];
  #health?: HealthChecks;
  #started = false;

  constructor(
    models: readonly OutboundProviderModel[],
    private readonly o: ProvidersOptions,
    fail: (path: string, e: unknown) => void,
  ) {
    models.forEach((m, i) => {
      const at = `/outbound_providers/${i}`;
      try {
        if (this.#providers.has(m.tag)) {
          throw new ConfigError(`${at}/tag`, `duplicate provider tag "${m.tag}"`);
        }
        if (m.type === "remote" && m.http_client !== undefined) {
          throw new ConfigError(`${at}/http_client`, 'not supported yet: use "download_detour"');
        }
        const p = new Provider(m, {
          logger: o.logger,
          build: o.build,
          taken: (tag, self) =>
            o.topLevel(tag) || [...this.#providers.values()].some((q) => q.tag !== self && q.outbound(tag)),
        });
        this.#providers.set(m.tag, p);
        this.#load(p, at);
      } catch (e) {
        fail(at, e);
      }
    });
  }

  /** Build-time load: nothing is started yet. */
  #load(p: Provider, at: string) {
    const m = p.model;
    const sync = (list: Record<string, unknown>[], where: string) => void p.install(p.prepare(list, where));
    if (m.type === "inline") return sync(m.outbounds as never, `${at}/outbounds`);
    const file = this.file(p);
    let body: string;
    try {
      body = Deno.readTextFileSync(file);
    } catch (e) {
      if (m.type === "local") {
        throw new ConfigError(`${at}/path`, `cannot read provider file "${file}": ${errorText(e)}`);
      }
      return; // No cache yet: the first download fills it.
    }
    try {
      sync(p.parseBody(body, `"${file}"`), `"${file}"`);
    } catch (e) {
      if (m.type === "local") throw new ConfigError(`${at}/path`, errorText(e));
      this.o.logger.warn(`provider "${p.tag}": ignoring the cache: ${errorText(e)}`);
    }
  }

  /** The file a local provider reads, or where a remote one keeps its last download. */
  file(p: Provider): string {
    const m = p.model;
    if (m.type === "local") return resolvePath(this.o.dataDir, m.path);
    return resolvePath(this.o.dataDir, (m.type === "remote" && m.path) || `providers/${p.tag}.txt`);
  }

  has(tag: string): boolean {
    return this.#providers.has(tag);
  }

  get(tag: string): Provider | undefined {
    return this.#providers.get(tag);
  }

  /** The member tags a provider offers now; undefined for an unknown provider. */
  tags(provider: string): readonly string[] | undefined {
    return this.#providers.get(provider)?.tags;
  }

  /** A provider member by its visible tag. */
  outbound(tag: string): Outbound | undefined {
    for (const p of this.#providers.values()) {
      const o = p.outbound(tag);
      if (o) return o;
    }
    return undefined;
  }

  /** The groups' scheduler: providers with `health_check` test their members through it. */
  useHealth(health: HealthChecks): void {
    this.#health ??= health;
    if (this.#started) this.#startHealth();
  }

  async start(): Promise<void> {
    this.#started = true;
    for (const p of this.#providers.values()) {
      for (const o of p.outbounds) await o.start?.();
      if (p.model.type === "local") this.#watch(p);
      if (p.model.type === "remote") this.#schedule(p);
    }
    this.#startHealth();
  }

  /** Reads a local file again; the last good set stays when the new body is bad. */
  async reload(tag: string): Promise<boolean> {
    const p = this.#providers.get(tag);
    if (!p) return false;
    const file = this.file(p);
    try {
      const body = await Deno.readTextFile(file);
      const n = await p.replace(p.parseBody(body, `"${file}"`), `"${file}"`, this.#started);
      this.o.logger.info(`provider "${tag}" reloaded from "${file}": ${n} outbounds`);
      return true;
    } catch (e) {
      this.o.logger.error(`provider "${tag}": keeping the last good set: ${errorText(e)}`);
      return false;
    }
  }

  /** Downloads a remote provider now; on failure keeps the last good set (and cache) and says so. */
  async update(tag: string): Promise<boolean> {
    const p = this.#providers.get(tag);
    if (p?.model.type !== "remote") return false;
    const m = p.model;
    try {
      const via = this.o.downloadVia(m.download_detour);
      if (!via) throw new Error(`download outbound "${m.download_detour ?? "(default)"}" is not built`);
      const bytes = await httpGet(via, m.url, {
        userAgent: this.o.userAgent ?? "svc (clash.meta; sing-box)",
        maxBytes: LIMITS.maxBodyChars,
        timeoutMs: DOWNLOAD_TIMEOUT,
        clientLayers: this.o.clientLayers,
      });
      const body = new TextDecoder().decode(bytes);
      const n = await p.replace(p.parseBody(body, `"${m.url}"`), `"${m.url}"`, this.#started);
      const file = this.file(p);
      await Deno.mkdir(file.slice(0, file.lastIndexOf("/")) || "/", { recursive: true });
      // Written beside and renamed, so a crash never leaves a torn cache.
      await Deno.writeFile(`${file}.tmp`, bytes);
      await Deno.rename(`${file}.tmp`, file);
      this.o.logger.info(`provider "${tag}" updated from "${m.url}": ${n} outbounds`);
      return true;
    } catch (e) {
      this.o.logger.error(
        `provider "${tag}": download failed, keeping the last good set (${p.tags.length} outbounds): ${
          errorText(e)
        }`,
      );
      return false;
    }
  }

  #schedule(p: Provider) {
    const m = p.model as OutboundProviderModel & { type: "remote" };
    let age = Infinity;
    try {
      const mtime = Deno.statSync(this.file(p)).mtime?.getTime();
      if (mtime !== undefined && p.tags.length > 0) age = Date.now() - mtime;
    } catch { /* no cache */ }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const run = (delay: number) => {
      timer = setTimeout(async () => {
        await this.update(p.tag);
        if (!closed) run(m.update_interval);
      }, Math.max(0, delay));
    };
    run(age >= m.update_interval ? 0 : m.update_interval - age);
    this.#closers.push(() => {
      closed = true;
      clearTimeout(timer);
    });
  }

  #watch(p: Provider) {
    const file = this.file(p);
    let watcher: Deno.FsWatcher;
    try {
      // The directory: editors and `mv` replace the file, which ends a watch on the file itself.
      watcher = Deno.watchFs(file.slice(0, file.lastIndexOf("/")) || "/", { recursive: false });
    } catch (e) {
      return this.o.logger.warn(`provider "${p.tag}": cannot watch "${file}": ${errorText(e)}`);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.#closers.push(() => {
      clearTimeout(timer);
      try {
        watcher.close();
      } catch { /* closed */ }
    });
    (async () => {
      for await (const ev of watcher) {
        if (ev.kind === "access" || !ev.paths.includes(file)) continue;
        clearTimeout(timer);
        timer = setTimeout(() => this.reload(p.tag), 50);
      }
    })().catch(() => {});
  }

  #healthTasks: HealthTask[] = [];
  #startHealth() {
    const health = this.#health;
    if (!health || this.#healthTasks.length) return;
    for (const p of this.#providers.values()) {
      const hc = p.model.health_check;
      if (!hc?.enabled) continue;
      this.#healthTasks.push(health.every(hc.interval, async () => {
        await Promise.all(p.outbounds.map((o) => health.check(o, hc.url, hc.timeout)));
      }));
    }
  }

  async close(): Promise<void> {
    for (const c of this.#closers) c();
    this.#closers = [];
    for (const t of this.#healthTasks) t.cancel();
    this.#healthTasks = [];
    await Promise.allSettled([...this.#providers.values()].map((p) => p.close()));
  }
}
