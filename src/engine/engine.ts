/**
 * The composition root: builds every runtime object from the model (so configuration errors
 * surface before anything listens), starts them in dependency order, and stops them within a
 * deadline. One Engine owns everything it creates; several can run in one process.
 */
import type { Inbound, Metadata, Outbound } from "../adapter/mod.ts";
import type { Model } from "../config/mod.ts";
import { ConfigError, ConfigErrors, errorText, SvcError } from "../common/errors.ts";
import { consoleWantsColour, fileSink, Logger, type LogSink, parseLogLevel } from "../common/log.ts";
import { type Resolver, SystemResolver } from "../net/resolver.ts";
import { DirectOutbound } from "../protocol/direct/outbound.ts";
import type { HealthChecks } from "../group/health.ts";
import { Providers } from "../group/providers/mod.ts";
import type { CompiledRule } from "../route/decide.ts";
import { Router } from "../route/router.ts";
import { ruleText } from "../route/rule_text.ts";
import { compileRule } from "../route/rules/mod.ts";
import { RuleSets } from "../route/rule_set/rule_sets.ts";
import { Tracker } from "../tracker/mod.ts";
import { buildClientLayers, buildServerLayers } from "../transport/stack.ts";
import type { TlsEnvironment } from "../tls/layer.ts";
import { trustFromCertificateObject } from "../tls/store.ts";
import { dialerFor } from "./dialer.ts";
import { buildDns, type BuiltDns } from "./dns.ts";
import { checkListenFields } from "./listen_fields.ts";
import { builtinProtocols } from "./registry.ts";

function lookupMetadata(name: string, outbound: string): Metadata {
  return {
    inbound: "",
    inboundType: "",
    network: "udp",
    source: { host: "0.0.0.0", port: 0 },
    destination: { host: name, port: 53 },
    outbound,
  };
}

export interface EngineOptions {
  /** Where log lines go instead of the model's `log.output` / the console. */
  logSink?: LogSink;
  /** How long stop() waits for tasks (ms); default 2000. */
  stopWithinMs?: number;
  resolver?: Resolver;
  /** Where relative rule-set and asset paths resolve; the working directory by default. */
  dataDir?: string;
}

export type EngineState = "idle" | "running" | "stopped" | "failed";

export class Engine {
  readonly logger: Logger;
  readonly tracker = new Tracker();
  readonly router: Router;
  readonly inbounds = new Map<string, Inbound>();
  readonly outbounds = new Map<string, Outbound>();
  state: EngineState = "idle";
  /** What the configuration asks for that runs differently here; logged at start, printed by check. */
  readonly warnings: string[] = [];
  private readonly closeLog?: () => void;
  private readonly dns?: BuiltDns;
  private readonly ruleSets?: RuleSets;
  /** Outbound providers: their members are outbounds too, looked up after the top-level table. */
  readonly providers: Providers;
  private readonly stopWithinMs: number;

  private constructor(readonly model: Model, opts: EngineOptions) {
    const log = model.log;
    const sink = opts.logSink ?? (log.output ? fileSink(log.output) : undefined);
    this.closeLog = sink && "close" in sink ? (sink as { close(): void }).close : undefined;
    this.logger = new Logger({
      level: parseLogLevel(log.level),
      format: log.format,
      timestamp: log.timestamp,
      disabled: log.disabled,
      colour: !sink && consoleWantsColour(),
      sink,
    });
    this.stopWithinMs = opts.stopWithinMs ?? 2000;
    // DNS servers dial with the system resolver for their own names (no bootstrap loop).
    const systemResolver = opts.resolver ?? new SystemResolver();
    const protocols = builtinProtocols();
    const errors: ConfigError[] = [];
    const fail = (path: string, e: unknown) => {
      if (Array.isArray(e)) errors.push(...e);
      else if (e instanceof ConfigError) errors.push(e);
      else errors.push(new ConfigError(path, errorText(e)));
    };

    const warn = (message: string) => void this.warnings.push(message);
    const outboundByTag = (tag: string) => this.outbounds.get(tag) ?? this.providers?.outbound(tag);

    const dns = buildDns(
      model,
      (fields, path, serverResolver) =>
        dialerFor(fields as never, path, model.route, serverResolver, outboundByTag, warn),
      systemResolver,
      fail,
    );
    this.dns = dns;
    // With servers configured the engine's own lookups go through them; else the system resolver.
    const service = dns?.service;
    /** Lookups made for an outbound carry its tag, for the DNS rules' (deprecated) `outbound` condition. */
    const resolverFor = (outbound?: string): Resolver =>
      service && model.dns.servers.length > 0
        ? {
          lookup: (name, strategy, server) =>
            service.lookup(
              name,
              strategy,
              outbound === undefined ? undefined : lookupMetadata(name, outbound),
              server,
            ),
        }
        : systemResolver;
    const resolver = resolverFor();

    // Outbounds: build all; detours resolve lazily by tag so order does not matter here.
    const lookup = (name: string) => resolver.lookup(name, "ipv4_only");
    const tlsEnv: TlsEnvironment = {};
    try {
      tlsEnv.trust = trustFromCertificateObject(model.certificate);
    } catch (e) {
      fail("/certificate", e);
    }
    const clientLayers = (path: string) => (o: Parameters<typeof buildClientLayers>[0]) =>
      buildClientLayers({ path, ...o }, tlsEnv);
    // Providers first: groups check their `providers` names when built. Members build through the
    // same factories as top-level outbounds; a tag clash renames the member `<provider>/<tag>`.
    const topLevel = new Set(model.outbounds.map((o) => o.tag));
    const buildMember = (o: Record<string, unknown>, where: string) => {
      const type = String(o.type);
      const tag = String(o.tag);
      const factory = protocols.outbounds.get(type);
      if (!factory) throw new Error(`outbound type "${type}" is not built into this binary`);
      const dialer = dialerFor(o as never, where, model.route, resolverFor(tag), outboundByTag, warn);
      return factory(o, {
        logger: this.logger.child(`outbound/${type}[${tag}]`),
        dialer,
        outbound: outboundByTag,
        lookup,
        clientLayers: clientLayers(where),
      });
    };
    this.providers = new Providers(model.outbound_providers, {
      logger: this.logger.child("provider"),
      build: buildMember,
      topLevel: (tag) => topLevel.has(tag),
      downloadVia: (detour) =>
        detour !== undefined
          ? outboundByTag(detour)
          : this.outbounds.get(model.route.final ?? "") ?? this.outbounds.values().next().value,
      clientLayers: clientLayers("/outbound_providers"),
      dataDir: opts.dataDir ?? Deno.cwd(),
    }, fail);
    const providers = {
      tags: (p: string) => this.providers.tags(p),
      useHealth: (h: unknown) => this.providers.useHealth(h as HealthChecks),
    };
    model.outbounds.forEach((o, i) => {
      const path = `/outbounds/${i}`;
      const factory = protocols.outbounds.get(o.type);
      if (!factory) return fail(`${path}/type`, `outbound type "${o.type}" is not built into this binary`);
      try {
        const logger = this.logger.child(`outbound/${o.type}[${o.tag}]`);
        const dialer = dialerFor(o as never, path, model.route, resolverFor(o.tag), outboundByTag, warn);
        this.outbounds.set(
          o.tag,
          factory(o, {
            logger,
            dialer,
            outbound: outboundByTag,
            lookup,
            clientLayers: clientLayers(path),
            providers,
          }),
        );
      } catch (e) {
        fail(path, e);
      }
    });
    // With no outbounds at all, everything goes direct (sing-box does the same).
    if (this.outbounds.size === 0 && errors.length === 0) {
      const logger = this.logger.child("outbound/direct[direct]");
      const dialer = dialerFor({}, "/outbounds", model.route, resolver, outboundByTag, warn);
      this.outbounds.set(
        "direct",
        new DirectOutbound({ tag: "direct" }, {
          logger,
          dialer,
          outbound: outboundByTag,
          lookup,
          clientLayers: clientLayers("/outbounds"),
        }),
      );
    }

    const ruleSets = new RuleSets(
      model.route.rule_set,
      { dataDir: opts.dataDir ?? Deno.cwd() },
      (e) => fail("/route/rule_set", e),
    );
    this.ruleSets = ruleSets;
    const rules: CompiledRule[] = [];
    model.route.rules.forEach((r, i) => {
      const path = `/route/rules/${i}`;
      try {
        rules.push({
          index: i,
          matcher: compileRule(r as never, { path, ruleSets }),
          action: r as never,
          text: ruleText(r as Record<string, unknown>),
        });
      } catch (e) {
        fail(path, e);
      }
    });

    this.router = new Router({
      rules,
      outbounds: this.outbounds,
      final: model.route.final ?? this.outbounds.keys().next().value ?? "direct",
      tracker: this.tracker,
      resolver,
      // Only when building failed (errors are thrown below): a stand-in that answers nothing.
      dns: dns?.service ?? {
        exchange: () => Promise.resolve(new Uint8Array(0)),
        lookup: (n) => resolver.lookup(n),
        domainOf: () => undefined,
      },
      logger: this.logger.child("router"),
    });

    model.inbounds.forEach((o, i) => {
      const path = `/inbounds/${i}`;
      const factory = protocols.inbounds.get(o.type);
      if (!factory) return fail(`${path}/type`, `inbound type "${o.type}" is not built into this binary`);
      try {
        const logger = this.logger.child(`inbound/${o.type}[${o.tag}]`);
        checkListenFields(o, path, warn);
        const serverLayers = (l: { tls?: unknown; transport?: unknown }) =>
          buildServerLayers({ ...l, path }, logger);
        this.inbounds.set(o.tag, factory(o, { logger, handler: this.router, serverLayers }));
      } catch (e) {
        fail(path, e);
      }
    });
    if (errors.length) throw new ConfigErrors(errors);
  }

  /** Builds the runtime from a model without opening anything; throws ConfigErrors. */
  static build(model: Model, opts: EngineOptions = {}): Engine {
    return new Engine(model, opts);
  }

  async start(): Promise<void> {
    for (const w of this.warnings) this.logger.warn(w);
    try {
      this.ruleSets?.start(this.logger.child("rule-set"));
      await this.providers.start();
      for (const o of this.startOrder()) await o.start?.();
      for (const i of this.inbounds.values()) await i.start();
      this.state = "running";
      this.logger.info("svc started");
    } catch (e) {
      this.state = "failed";
      await this.stop().catch(() => {});
      this.state = "failed";
      throw e instanceof SvcError ? e : new SvcError("start", `Start failed: ${errorText(e)}`, { cause: e });
    }
  }

  /** Outbounds with their dependencies (detours) first. */
  private startOrder(): Outbound[] {
    const done = new Set<string>();
    const out: Outbound[] = [];
    const visit = (o: Outbound, depth: number) => {
      if (done.has(o.tag) || depth > this.outbounds.size) return;
      for (const d of o.dependencies) {
        const dep = this.outbounds.get(d);
        if (dep) visit(dep, depth + 1);
      }
      done.add(o.tag);
      out.push(o);
    };
    for (const o of this.outbounds.values()) visit(o, 0);
    return out;
  }

  /** Stops listeners, ends live connections, closes outbounds; gives up waiting after stopWithinMs. */
  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    const work = (async () => {
      await Promise.allSettled([...this.inbounds.values()].map((i) => i.close()));
      this.tracker.closeAll();
      await this.tracker.whenEmpty();
      await Promise.allSettled([...this.outbounds.values()].map((o) => o.close?.()));
      await this.providers.close();
      this.dns?.close();
      this.ruleSets?.close();
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((r) => (timer = setTimeout(r, this.stopWithinMs)));
    await Promise.race([work, deadline]);
    clearTimeout(timer);
    this.state = "stopped";
    this.logger.info("svc stopped");
    this.closeLog?.();
  }
}
