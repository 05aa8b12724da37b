/**
 * svc's own DNS service with real clients: dig over UDP and TCP to a DNS listener (a `direct`
 * inbound hijacked to the DNS subsystem) with DNS rules, two dnsmasq upstreams with different
 * answers, and a query over a SOCKS5 UDP association sniffed as DNS and hijacked.
 */
import assert from "node:assert/strict";
import { startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startDnsmasq } from "../support/peers.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";

async function dig(port: number, name: string, extra: string[] = []): Promise<string> {
  const out = await new Deno.Command("dig", {
    args: [`@127.0.0.1`, "-p", String(port), name, "+time=3", "+tries=1", ...extra],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

const short = (port: number, name: string, extra: string[] = []) => dig(port, name, ["+short", ...extra]);
const status = async (port: number, name: string, extra: string[] = []) =>
  /status: (\w+)/.exec(await dig(port, name, extra))?.[1];

function config(lanPort: number, corpPort: number) {
  return {
    log: { level: "info" },
    dns: {
      servers: [
        { type: "udp", tag: "lan", server: "127.0.0.1", server_port: lanPort },
        { type: "tcp", tag: "corp", server: "127.0.0.1", server_port: corpPort },
      ],
      rules: [
        { domain_suffix: ["corp.lan"], server: "corp" },
        { domain: ["fixed.example"], action: "predefined", answer: ["fixed.example. 60 IN A 192.0.2.1"] },
        { domain_suffix: ["blocked.example"], action: "reject" },
      ],
      final: "lan",
      timeout: "2s",
      client_strategy: "ipv4_only",
    },
    inbounds: [{ type: "direct", tag: "dns-in", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "direct" }],
    route: { rules: [{ inbound: "dns-in", action: "hijack-dns" }] },
  };
}

for (const transport of ["udp", "tcp"]) {
  const extra = transport === "tcp" ? ["+tcp"] : [];
  Deno.test(`DNS listener over ${transport}: rules pick upstreams, predefined, reject, client_strategy`, async () => {
    await using lan = await startDnsmasq({ localTtl: 300 });
    await using corp = await startDnsmasq({ records: ["address=/corp.lan/10.0.0.7"] });
    await using svc = await startEngine(config(lan.port, corp.port));
    const port = inboundPort(svc, "dns-in");
    // domain_suffix → the second upstream; everything else → dns.final.
    assert.equal(await short(port, "git.corp.lan", extra), "10.0.0.7");
    assert.equal(await short(port, "a.test.lan", extra), "127.0.0.1");
    // predefined: answered by svc itself, with the configured TTL.
    assert.match(await dig(port, "fixed.example", extra), /fixed\.example\.\s+60\s+IN\s+A\s+192\.0\.2\.1/);
    // reject → REFUSED.
    assert.equal(await status(port, "www.blocked.example", extra), "REFUSED");
    // client_strategy ipv4_only: AAAA is answered NOERROR with no records; A still works.
    assert.equal(await short(port, "a.test.lan", ["AAAA", ...extra]), "");
    assert.equal(await status(port, "a.test.lan", ["AAAA", ...extra]), "NOERROR");
    // The cache: answered again after the upstream is gone.
    assert.equal(await short(port, "cached.test.lan", extra), "127.0.0.1");
    await lan[Symbol.asyncDispose]();
    assert.equal(await short(port, "cached.test.lan", extra), "127.0.0.1");
    assert.equal(
      await status(port, "uncached.test.lan", extra),
      "SERVFAIL",
      "not cached: the upstream is gone",
    );
  });
}

/** An A query for `name` with id `id` (RD set), written by hand. */
function query(name: string, id: number): Uint8Array {
  const labels = name.split(".").flatMap((l) => [l.length, ...new TextEncoder().encode(l)]);
  return new Uint8Array([id >> 8, id & 0xff, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...labels, 0, 0, 1, 0, 1]);
}

Deno.test("a DNS query over a SOCKS5 UDP association is sniffed and hijacked", async () => {
  await using lan = await startDnsmasq();
  await using svc = await startEngine({
    log: { level: "info" },
    dns: { servers: [{ type: "udp", tag: "lan", server: "127.0.0.1", server_port: lan.port }] },
    inbounds: [{ type: "mixed", tag: "mixed-in", listen_port: 0 }],
    outbounds: [{ type: "direct", tag: "direct" }],
    route: {
      rules: [
        { inbound: "mixed-in", action: "sniff" },
        { protocol: "dns", action: "hijack-dns" },
      ],
    },
  });
  using client = await Socks5UdpClient.open({ host: "127.0.0.1", port: inboundPort(svc, "mixed-in") });
  // Addressed to a DNS server that does not exist: only the hijack can answer.
  const to = { host: "192.0.2.53", port: 53 };
  await client.send(to, query("a.test.lan", 0x1234));
  const got = await client.receive();
  assert.ok(got, "an answer through the association");
  assert.deepEqual(got.from, to);
  const r = got.payload;
  assert.equal((r[0] << 8) | r[1], 0x1234, "the client's id");
  assert.equal(r[2] & 0x80, 0x80, "a response");
  assert.equal(r[3] & 0x0f, 0, "NOERROR");
  assert.equal((r[6] << 8) | r[7], 1, "one answer");
  assert.deepEqual([...r.subarray(r.length - 4)], [127, 0, 0, 1]);
  assert.ok(svc.logs.some((l) => /hijack-dns/.test(l)), svc.logs.join(""));
});
