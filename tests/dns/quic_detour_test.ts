/**
 * `quic` (DoQ) and `h3` (DoH3) servers with a `detour`: svc's QUIC endpoint talks to a loopback
 * relay whose datagrams go through the detour's packet connection. The detour is a real one: svc's
 * `socks` outbound to dante, which relays them by UDP ASSOCIATE. The DoQ/DoH3 servers are the test
 * ones in quic_servers.ts (no Debian package serves DNS over QUIC). A client asks over UDP (dig) on
 * a hijack-dns listener.
 */
import assert from "node:assert/strict";
import { makeTestCertificates } from "../support/certs.ts";
import { startEngine } from "../support/engine.ts";
import { inboundPort } from "../support/e2e.ts";
import { startDante } from "../support/peers.ts";
import { type QuicTestServer, startDoh3, startDoq } from "./quic_servers.ts";

async function dig(port: number, name: string): Promise<string> {
  const out = await new Deno.Command("dig", {
    args: [`@127.0.0.1`, "-p", String(port), name, "+short", "+time=5", "+tries=1"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** The process owning the UDP socket bound to 127.0.0.1:`port` (as `ss -p` prints it). */
async function socketOwner(port: number): Promise<string> {
  const out = await new Deno.Command("ss", { args: ["-H", "-uanp", `sport = :${port}`], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

for (const type of ["quic", "h3"] as const) {
  Deno.test(`${type} DNS server through a socks detour (dante, UDP ASSOCIATE)`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "svc-quic-detour-" });
    let server: QuicTestServer | undefined;
    try {
      await makeTestCertificates(dir);
      const cert = await Deno.readTextFile(`${dir}/leaf.pem`);
      const key = await Deno.readTextFile(`${dir}/leaf.key`);
      server = type === "quic" ? startDoq(cert, key) : startDoh3(cert, key);
      await using dante = await startDante();
      await using svc = await startEngine({
        log: { level: "debug" },
        dns: {
          servers: [{
            type,
            tag: "remote",
            server: "127.0.0.1",
            server_port: server.port,
            detour: "proxy",
            tls: { server_name: "localhost", certificate_path: `${dir}/ca.pem` },
          }],
          disable_cache: true,
        },
        inbounds: [{ type: "direct", tag: "dns-in", listen: "127.0.0.1", listen_port: 0 }],
        outbounds: [
          { type: "direct", tag: "direct" },
          { type: "socks", tag: "proxy", server: "127.0.0.1", server_port: dante.port },
        ],
        route: { rules: [{ inbound: "dns-in", action: "hijack-dns" }], final: "direct" },
      });
      const port = inboundPort(svc, "dns-in");
      assert.equal(await dig(port, "a.test.lan"), "127.0.0.1", svc.logs.join(""));
      // Several queries share the one bridged connection.
      const answers = await Promise.all(["b", "c", "d"].map((n) => dig(port, `${n}.test.lan`)));
      assert.deepEqual(answers, ["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
      assert.equal(server.peers.length, 1, "one QUIC connection");
      // The datagrams really went through the detour: dante logged the association, and the
      // server's peer is dante's relay socket (owned by the danted process), not svc's endpoint.
      assert.match(dante.log(), /udp\/udpassociate/);
      assert.match(await socketOwner(server.peers[0].port), /danted/);
    } finally {
      server?.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  });
}
