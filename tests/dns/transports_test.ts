/**
 * The DNS transports against real servers (shared/PEERS.md): dnsmasq for udp and tcp (and a TXT
 * record too big for UDP), unbound for DoT and DoH with a CA and a leaf made here by openssl.
 */
import assert from "node:assert/strict";
import { makeTestCertificates } from "../support/certs.ts";
import type { Dialer } from "../../src/adapter/mod.ts";
import { DnsError } from "../../src/common/errors.ts";
import { DnsServer } from "../../src/config/model/dns_server.ts";
import { createTransport, type DnsTransport } from "../../src/dns/servers/mod.ts";
import { decodeMessage, isTruncated, messageId } from "../../src/dns/servers/packet.ts";
import { addresses, query, testDialer } from "../../src/dns/servers/testing.ts";
import { freePort } from "../support/engine.ts";
import { waitForPort } from "../support/peers.ts";
import { startDoq } from "./quic_servers.ts";

function need(binary: string): string {
  for (const dir of ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) {
    try {
      Deno.statSync(`${dir}/${binary}`);
      return `${dir}/${binary}`;
    } catch { /* next */ }
  }
  throw new Error(`Test peer "${binary}" is not installed; run scripts/test_deps`);
}

function freeUdpPort(): number {
  while (true) {
    const port = freePort();
    try {
      Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port }).close();
      return port;
    } catch { /* taken for UDP: try another */ }
  }
}

interface Proc {
  child: Deno.ChildProcess;
  stderr: Promise<string>;
}

function spawn(cmd: string, args: string[]): Proc {
  const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "piped" }).spawn();
  return { child, stderr: new Response(child.stderr).text() };
}

async function stop(p: Proc | undefined): Promise<void> {
  if (!p) return;
  try {
    p.child.kill("SIGTERM");
  } catch { /* gone */ }
  const timer = setTimeout(() => {
    try {
      p.child.kill("SIGKILL");
    } catch { /* gone */ }
  }, 3000);
  await p.child.status;
  clearTimeout(timer);
  await p.stderr;
}

async function started(p: Proc, port: number, name: string): Promise<void> {
  await Promise.race([
    waitForPort(port),
    p.child.status.then(async (s) => {
      throw new Error(`${name} exited with ${s.code}: ${await p.stderr}`);
    }),
  ]);
}

/** 8 strings of 200 bytes: about 1.6 KB, more than a 512-byte UDP answer holds. */
const BIG_TXT = Array.from({ length: 8 }, (_, i) => String.fromCharCode(97 + i).repeat(200));

Deno.test("DNS transports against dnsmasq and unbound", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "svc-dns-" });
  await Deno.chmod(dir, 0o777);
  let dnsmasq: Proc | undefined;
  let unbound: Proc | undefined;
  const transports: DnsTransport[] = [];
  let doq: { close(): void } | undefined;
  try {
    await makeTestCertificates(dir);
    const plain = freeUdpPort();
    await Deno.writeTextFile(
      `${dir}/dnsmasq.conf`,
      [
        `port=${plain}`,
        "listen-address=127.0.0.1",
        "bind-interfaces",
        "no-resolv",
        "no-hosts",
        "user=root",
        `pid-file=${dir}/dnsmasq.pid`,
        "address=/test.lan/127.0.0.1",
        "address=/test.lan/::1",
        ...BIG_TXT.map((s) => `txt-record=big.test.lan,"${s}"`),
        "",
      ].join("\n"),
    );
    dnsmasq = spawn(need("dnsmasq"), ["-k", `--conf-file=${dir}/dnsmasq.conf`]);
    const [dotPort, dohPort, ubPort] = [freePort(), freePort(), freeUdpPort()];
    await Deno.writeTextFile(
      `${dir}/unbound.conf`,
      [
        "server:",
        `  interface: 127.0.0.1@${ubPort}`,
        `  interface: 127.0.0.1@${dotPort}`,
        `  interface: 127.0.0.1@${dohPort}`,
        `  tls-port: ${dotPort}`,
        `  https-port: ${dohPort}`,
        `  tls-service-key: "${dir}/leaf.key"`,
        `  tls-service-pem: "${dir}/leaf.pem"`,
        '  username: ""',
        '  chroot: ""',
        `  directory: "${dir}"`,
        `  pidfile: "${dir}/unbound.pid"`,
        '  logfile: ""',
        "  use-syslog: no",
        '  module-config: "iterator"',
        "  do-not-query-localhost: no",
        "  qname-minimisation: no",
        "  do-ip6: no",
        "remote-control:",
        "  control-enable: no",
        "forward-zone:",
        '  name: "."',
        `  forward-addr: 127.0.0.1@${plain}`,
        "",
      ].join("\n"),
    );
    unbound = spawn(need("unbound"), ["-d", "-c", `${dir}/unbound.conf`]);
    await started(dnsmasq, plain, "dnsmasq");
    await started(unbound, dohPort, "unbound");

    const deps = { dialer: testDialer(), transports: (tag: string) => transports.find((x) => x.tag === tag) };
    const make = (server: unknown) => {
      const x = createTransport(DnsServer.parse(server), deps);
      transports.push(x);
      return x;
    };
    const ca = `${dir}/ca.pem`;
    const signal = () => AbortSignal.timeout(5000);
    const expectA = async (x: DnsTransport, name = "a.test.lan") => {
      const r = await x.exchange(query(name, "A", 0xbeef), signal());
      assert.equal(messageId(r), 0xbeef);
      assert.deepEqual(addresses(r), ["127.0.0.1"]);
    };

    await t.step(
      "udp",
      () => expectA(make({ type: "udp", tag: "udp", server: "127.0.0.1", server_port: plain })),
    );
    await t.step("tcp", async () => {
      const x = make({ type: "tcp", tag: "tcp", server: "127.0.0.1", server_port: plain });
      await expectA(x);
      const many = await Promise.all(
        Array.from({ length: 20 }, (_, i) => x.exchange(query(`h${i}.test.lan`, "AAAA", i), signal())),
      );
      assert.deepEqual(many.map(messageId), Array.from({ length: 20 }, (_, i) => i));
      for (const r of many) assert.deepEqual(addresses(r), ["::1"]);
    });
    await t.step("udp falls back to tcp for a truncated answer", async () => {
      const x = transports.find((y) => y.tag === "udp")!;
      const r = await x.exchange(query("big.test.lan", "TXT", 9), signal());
      assert.equal(isTruncated(r), false);
      const txt = (decodeMessage(r).answers ?? []).flatMap((a) =>
        (a.data as Uint8Array[]).map((b) => new TextDecoder().decode(b))
      );
      assert.deepEqual(txt.sort(), BIG_TXT);
    });
    await t.step("tls (DoT) with server_name and certificate_path", () =>
      expectA(make({
        type: "tls",
        tag: "dot",
        server: "127.0.0.1",
        server_port: dotPort,
        tls: { server_name: "localhost", certificate_path: ca },
      })));
    await t.step("tls (DoT) with an inline certificate and the IP as the name", async () => {
      const pem = await Deno.readTextFile(ca);
      const x = make({
        type: "tls",
        tag: "dot2",
        server: "127.0.0.1",
        server_port: dotPort,
        tls: { certificate: pem },
      });
      await expectA(x);
      await expectA(x, "b.test.lan");
    });
    await t.step("tls (DoT) with an unknown CA is a DnsError", async () => {
      const x = make({ type: "tls", tag: "dot-bad", server: "127.0.0.1", server_port: dotPort });
      await assert.rejects(x.exchange(query("a.test.lan"), signal()), DnsError);
    });
    await t.step("https (DoH) to the address", () =>
      expectA(make({
        type: "https",
        tag: "doh",
        server: "127.0.0.1",
        server_port: dohPort,
        tls: { certificate_path: ca },
      })));
    await t.step("https (DoH) with server_name, headers and parallel queries", async () => {
      const x = make({
        type: "https",
        tag: "doh2",
        server: "127.0.0.1",
        server_port: dohPort,
        headers: { "x-test": "1" },
        tls: { server_name: "localhost", certificate_path: ca },
      });
      await expectA(x);
      await Promise.all(["a", "b", "c", "d"].map((n) => expectA(x, `${n}.test.lan`)));
    });
    await t.step("tls and https through a detour: TLS over a proxied stream (bridged)", async () => {
      // A dialer whose streams are not Deno sockets, as a detour's are: TLS must be bridged.
      const plainDialer = testDialer();
      const detour: Dialer = {
        dial: async (a, m, s) => {
          const c = await plainDialer.dial(a, m, s);
          return {
            read: (p) => c.read(p),
            write: (p) => c.write(p),
            closeWrite: () => c.closeWrite(),
            close: () => c.close(),
          };
        },
        listenPacket: (a, m, s) => plainDialer.listenPacket(a, m, s),
      };
      const viaDetour = (server: unknown) => {
        const x = createTransport(DnsServer.parse(server), { ...deps, dialer: detour });
        transports.push(x);
        return x;
      };
      await expectA(viaDetour({
        type: "tls",
        tag: "dot-detour",
        server: "127.0.0.1",
        server_port: dotPort,
        detour: "proxy",
        tls: { server_name: "localhost", certificate_path: ca },
      }));
      const doh = viaDetour({
        type: "https",
        tag: "doh-detour",
        server: "127.0.0.1",
        server_port: dohPort,
        detour: "proxy",
        tls: { certificate_path: ca },
      });
      await Promise.all(["a", "b", "c"].map((n) => expectA(doh, `${n}.test.lan`)));
      await expectA(doh);
    });
    await t.step("https (DoH) to a wrong path is a DnsError", async () => {
      const x = make({
        type: "https",
        tag: "doh-bad",
        server: "127.0.0.1",
        server_port: dohPort,
        path: "/nope",
        tls: { certificate_path: ca },
      });
      await assert.rejects(x.exchange(query("a.test.lan"), signal()), DnsError);
    });
    await t.step("quic (DoQ) against a Deno QUIC server", async () => {
      const server = startDoq(
        await Deno.readTextFile(`${dir}/leaf.pem`),
        await Deno.readTextFile(`${dir}/leaf.key`),
      );
      doq = server;
      const x = make({
        type: "quic",
        tag: "doq",
        server: "127.0.0.1",
        server_port: server.port,
        tls: { server_name: "localhost", certificate_path: ca },
      });
      await expectA(x);
      await Promise.all(["b", "c"].map((n) => expectA(x, `${n}.test.lan`)));
    });
    await t.step("race and sequential over real servers", async () => {
      make({ type: "udp", tag: "dead", server: "127.0.0.1", server_port: freeUdpPort() });
      await expectA(make({ type: "race", tag: "race", servers: ["dead", "dot", "doh"] }));
      const seq = make({ type: "sequential", tag: "seq", servers: ["dot-bad", "tcp"] });
      await expectA(seq);
    });
  } finally {
    for (const x of transports) x.close();
    doq?.close();
    await stop(unbound);
    await stop(dnsmasq);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
