import assert from "node:assert/strict";
import { DnsServer } from "../../config/model/dns_server.ts";
import { createTransport } from "./mod.ts";
import { testDialer } from "./testing.ts";

const deps = { dialer: testDialer(), transports: () => undefined };
const make = (s: unknown) => createTransport(DnsServer.parse(s), deps);

Deno.test("createTransport builds each type with its tag", () => {
  for (
    const s of [
      { type: "udp", server: "127.0.0.1" },
      { type: "tcp", tag: "t", server: "[::1]" },
      { type: "tls", server: "127.0.0.1" },
      { type: "https", server: "127.0.0.1" },
      { type: "quic", server: "127.0.0.1" },
      { type: "h3", server: "127.0.0.1" },
      { type: "local" },
      { type: "mdns", interface: ["lo"] },
      { type: "hosts", predefined: { "a.lan": "1.2.3.4" } },
      { type: "race", servers: ["x"] },
      { type: "sequential", servers: ["x"] },
    ]
  ) {
    const t = make(s);
    assert.equal(t.type, s.type);
    assert.equal(t.tag, (s as { tag?: string }).tag ?? s.type);
    t.close();
  }
});

Deno.test("createTransport takes a detour on QUIC servers (bridged), refuses tls.insecure", () => {
  for (const type of ["quic", "h3"]) {
    const t = make({ type, server: "127.0.0.1", detour: "proxy" });
    assert.equal(t.type, type);
    t.close();
  }
  assert.throws(() => make({ type: "tls", server: "127.0.0.1", tls: { insecure: true } }), /insecure/);
  assert.throws(
    () => make({ type: "tls", server: "127.0.0.1", tls: { certificate_path: "/nonexistent/ca.pem" } }),
    /certificate_path/,
  );
});
