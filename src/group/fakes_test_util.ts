/** Fake members and probes for the groups' unit tests (no network, injected time). */
import type { Address, Conn, Metadata, Outbound, PacketConn } from "../adapter/mod.ts";
import { DialError } from "../common/errors.ts";
import { Logger } from "../common/log.ts";
import { FakeClock } from "./clock.ts";
import type { GroupEnv } from "./group.ts";
import { HealthChecks } from "./health.ts";

export class FakeMember implements Outbound {
  readonly type = "fake";
  readonly networks = ["tcp", "udp"] as const;
  readonly dependencies = [];
  up = true;
  /** Delay its health test reports, in ms. */
  delay = 100;
  dials = 0;
  /** Destinations this member's dial refuses while it is up (the destination's failure, not the member's). */
  refuse = new Set<string>();
  constructor(readonly tag: string) {}
  dial(d: Address, _m: Metadata): Promise<Conn> {
    this.dials++;
    if (!this.up) return Promise.reject(new DialError(`${this.tag} is down`));
    if (this.refuse.has(d.host)) return Promise.reject(new DialError(`${d.host} refused`));
    const conn: Conn & { member: string } = {
      member: this.tag,
      read: () => Promise.resolve(null),
      write: (p) => Promise.resolve(p.length),
      closeWrite: () => Promise.resolve(),
      close: () => {},
    };
    return Promise.resolve(conn);
  }
  listenPacket(_d: Address, _m: Metadata): Promise<PacketConn> {
    return Promise.reject(new DialError("no udp"));
  }
}

export interface World {
  clock: FakeClock;
  members: Map<string, FakeMember>;
  health: HealthChecks;
  env: GroupEnv;
  /** Probe calls so far, by member tag. */
  probes: Map<string, number>;
  /** Probes that have not answered yet (resolved by advancing the clock by their delay). */
  inflight: () => number;
}

/** Members whose probe answers after `delay` ms of fake time, or fails when down. */
export function world(tags: string[], extra: Record<string, Outbound> = {}): World {
  const clock = new FakeClock();
  const members = new Map(tags.map((t) => [t, new FakeMember(t)]));
  const probes = new Map<string, number>();
  let inflight = 0;
  const health = new HealthChecks((member) => {
    probes.set(member.tag, (probes.get(member.tag) ?? 0) + 1);
    const m = members.get(member.tag);
    inflight++;
    return new Promise<number>((resolve, reject) => {
      const start = clock.now();
      clock.setTimer(() => {
        inflight--;
        if (!m || !m.up) reject(new DialError(`${member.tag} is down`));
        else resolve(clock.now() - start);
      }, m?.delay ?? 10);
    });
  }, clock);
  const env: GroupEnv = {
    logger: new Logger({ level: "error", disabled: true }),
    outbound: (tag) => members.get(tag) ?? extra[tag],
    health,
  };
  return { clock, members, health, env, probes, inflight: () => inflight };
}

export function md(destination: string, source = "10.0.0.1"): Metadata {
  return {
    inbound: "in",
    inboundType: "mixed",
    network: "tcp",
    source: { host: source, port: 40000 },
    destination: { host: destination, port: 443 },
  };
}

/** The tag of the fake member a group dialled. */
export async function via(o: Outbound, destination = "example.com", source?: string): Promise<string> {
  const c = await o.dial({ host: destination, port: 443 }, md(destination, source));
  return (c as unknown as { member: string }).member;
}

export const testOptions = { url: "http://probe.test/", interval: "1m", idle_timeout: "10m" };
