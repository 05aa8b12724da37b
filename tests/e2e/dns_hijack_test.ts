/**
 * The `hijack-dns` action and the engine's own lookups through configured DNS servers, with real
 * clients (dig over UDP and TCP, curl) and a real upstream (dnsmasq).
 */
import assert from "node:assert/strict";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startOrigin } from "../support/origin.ts";
import { startDnsmasq } from "../support/peers.ts";

async function dig(port: number, name: string, extra: string[] = []): Promise<string> {
  const out = await new Deno.Command("dig", {
    args: [`@127.0.0.1`, "-p", String(port), name, "+short", "+time=3", "+tries=1", ...extra],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

function config(upstreamPort: number) {
  return {
    log: { level: "info" },
    dns: { servers: [{ type: "udp", tag: "lan", server: "127.0.0.1", server_port: upstreamPort }] },
    inbounds: [
      // A DNS listener: a port forward whose traffic the router hijacks to the DNS subsystem.
      { type: "direct", tag: "dns-in", listen_port: 0, override_address: "192.0.2.53", override_port: 53 },
      { type: "mixed", tag: "mixed-in", listen_port: 0 },
    ],
    outbounds: [{ type: "direct", tag: "direct" }],
    route: { rules: [{ inbound: "dns-in", action: "hijack-dns" }] },
  };
}

Deno.test("hijack-dns answers dig over UDP and TCP from the configured server", async () => {
  await using dnsmasq = await startDnsmasq();
  await using svc = await startEngine(config(dnsmasq.port));
  const port = inboundPort(svc, "dns-in");
  assert.equal(await dig(port, "a.test.lan"), "127.0.0.1");
  assert.equal(await dig(port, "a.test.lan", ["AAAA"]), "::1");
  assert.equal(await dig(port, "txt.test.lan", ["TXT", "+tcp"]), '"hello dns"');
  assert.ok(svc.logs.some((l) => /hijacked by inbound=dns-in => hijack-dns/.test(l)), svc.logs.join(""));
});

Deno.test("the engine resolves names it dials through the configured DNS servers", async () => {
  await using dnsmasq = await startDnsmasq();
  const origin = startOrigin();
  try {
    await using svc = await startEngine(config(dnsmasq.port));
    // "origin.test.lan" exists only in dnsmasq, not in /etc/hosts.
    const r = await curl([
      "-x",
      `socks5h://127.0.0.1:${inboundPort(svc, "mixed-in")}`,
      `http://origin.test.lan:${origin.port}/hello`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hello from origin\n");
  } finally {
    await origin.close();
  }
});

Deno.test("fakeip: a client gets a fake address; connecting to it reaches the real host by name", async () => {
  await using dnsmasq = await startDnsmasq();
  const origin = startOrigin();
  try {
    const c = config(dnsmasq.port);
    await using svc = await startEngine({
      ...c,
      dns: {
        servers: [
          { type: "fakeip", tag: "fake", inet4_range: "198.18.0.0/15", inet6_range: "fc00::/18" },
          ...c.dns.servers,
        ],
        rules: [{ query_type: ["A", "AAAA"], server: "fake" }],
        final: "lan",
      },
    });
    const fake = await dig(inboundPort(svc, "dns-in"), "origin.test.lan");
    assert.match(fake, /^198\.1[89]\.\d+\.\d+$/);
    // socks5 (not socks5h): curl sends the fake address; svc dials origin.test.lan via dnsmasq.
    const r = await curl([
      "-x",
      `socks5://127.0.0.1:${inboundPort(svc, "mixed-in")}`,
      `http://${fake}:${origin.port}/hello`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hello from origin\n");
    const conn = svc.logs.find((l) => l.includes(`-> origin.test.lan:${origin.port}`));
    assert.ok(conn, svc.logs.join(""));
  } finally {
    await origin.close();
  }
});

Deno.test("reverse_mapping: an address from an answer matches domain rules", async () => {
  await using dnsmasq = await startDnsmasq();
  const origin = startOrigin();
  try {
    const c = config(dnsmasq.port);
    await using svc = await startEngine({
      ...c,
      dns: { ...c.dns, reverse_mapping: true },
      route: { rules: [...c.route.rules, { domain: ["blocked.test.lan"], action: "reject" }] },
    });
    const url = `http://127.0.0.1:${origin.port}/hello`;
    const proxy = `socks5://127.0.0.1:${inboundPort(svc, "mixed-in")}`;
    assert.equal((await curl(["-x", proxy, url])).code, 0, "before any answer the address has no name");
    assert.equal(await dig(inboundPort(svc, "dns-in"), "blocked.test.lan"), "127.0.0.1");
    const after = await curl(["-x", proxy, url]);
    assert.notEqual(after.code, 0, "after the answer 127.0.0.1 is blocked.test.lan and rejected");
  } finally {
    await origin.close();
  }
});

Deno.test("domain_resolver and the resolve action's server ask that server past the rules", async () => {
  await using dnsmasq = await startDnsmasq();
  const origin = startOrigin();
  // A UDP port where nothing answers: the default route of DNS queries in this configuration.
  const silent = Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: 0 });
  try {
    await using svc = await startEngine({
      log: { level: "info" },
      dns: {
        servers: [
          {
            type: "udp",
            tag: "silent",
            server: "127.0.0.1",
            server_port: (silent.addr as Deno.NetAddr).port,
          },
          { type: "udp", tag: "lan", server: "127.0.0.1", server_port: dnsmasq.port },
        ],
        final: "silent",
        timeout: "500ms",
      },
      inbounds: [{ type: "mixed", tag: "in", listen_port: 0 }],
      outbounds: [
        { type: "direct", tag: "via-lan", domain_resolver: "lan" },
        { type: "direct", tag: "via-final" },
      ],
      route: {
        rules: [
          { domain_suffix: ["resolve.test.lan"], action: "resolve", server: "lan" },
          { ip_cidr: ["127.0.0.0/8"], outbound: "via-final" },
          { domain_suffix: ["final.test.lan"], outbound: "via-final" },
        ],
        final: "via-lan",
      },
    });
    const proxy = `socks5h://127.0.0.1:${inboundPort(svc, "in")}`;
    const get = (host: string) => curl(["-x", proxy, `http://${host}:${origin.port}/hello`]);
    assert.equal((await get("a.test.lan")).stdout, "hello from origin\n", "domain_resolver: lan answers");
    assert.notEqual((await get("final.test.lan")).code, 0, "the rules' final server is silent");
    const resolved = await get("resolve.test.lan");
    assert.equal(resolved.stdout, "hello from origin\n", "resolve with server: lan, then ip_cidr matched");
    assert.ok(svc.logs.some((l) => /resolve\.test\.lan.*via via-final/.test(l)), svc.logs.join(""));
  } finally {
    silent.close();
    await origin.close();
  }
});

Deno.test("preferred_by: names a hosts server has go to it, the rest to the final server", async () => {
  await using dnsmasq = await startDnsmasq();
  const c = config(dnsmasq.port);
  await using svc = await startEngine({
    ...c,
    dns: {
      servers: [...c.dns.servers, {
        type: "hosts",
        tag: "h",
        path: [],
        predefined: { "printer.test.lan": "10.0.0.9" },
      }],
      rules: [{ preferred_by: ["h"], server: "h" }],
      final: "lan",
    },
  });
  const port = inboundPort(svc, "dns-in");
  assert.equal(await dig(port, "printer.test.lan"), "10.0.0.9");
  assert.equal(await dig(port, "other.test.lan"), "127.0.0.1");
});

Deno.test("a DNS server's own domain_resolver resolves the server's name", async () => {
  await using dnsmasq = await startDnsmasq();
  const c = config(dnsmasq.port);
  await using svc = await startEngine({
    ...c,
    dns: {
      servers: [
        // "upstream.internal" is known only to the hosts server below, not to the system.
        {
          type: "udp",
          tag: "lan",
          server: "upstream.internal",
          server_port: dnsmasq.port,
          domain_resolver: "boot",
        },
        { type: "hosts", tag: "boot", path: [], predefined: { "upstream.internal": "127.0.0.1" } },
      ],
      final: "lan",
    },
  });
  assert.equal(await dig(inboundPort(svc, "dns-in"), "a.test.lan"), "127.0.0.1");
});

Deno.test("the deprecated outbound condition matches lookups made for that outbound only", async () => {
  await using dnsmasq = await startDnsmasq();
  const origin = startOrigin();
  try {
    const c = config(dnsmasq.port);
    await using svc = await startEngine({
      ...c,
      dns: {
        servers: [
          { type: "udp", tag: "lan", server: "127.0.0.1", server_port: dnsmasq.port },
          { type: "hosts", tag: "pinned", path: [], predefined: { "origin.test.lan": "127.0.0.1" } },
        ],
        rules: [{ outbound: ["direct"], server: "pinned" }, {
          domain_suffix: ["test.lan"],
          action: "reject",
        }],
        final: "lan",
      },
    });
    // Clients' queries fall to the reject rule; the engine's lookup for "direct" goes to "pinned".
    assert.equal(await dig(inboundPort(svc, "dns-in"), "origin.test.lan"), "");
    const r = await curl([
      "-x",
      `socks5h://127.0.0.1:${inboundPort(svc, "mixed-in")}`,
      `http://origin.test.lan:${origin.port}/hello`,
    ]);
    assert.equal(r.stdout, "hello from origin\n", r.stderr);
  } finally {
    await origin.close();
  }
});
