/** What the engine refuses or warns about when built from a valid model: the runtime's half of `check`. */
import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/mod.ts";
import { ConfigErrors } from "../../src/common/errors.ts";
import { Engine } from "../../src/engine/engine.ts";

function build(config: unknown): Engine {
  return Engine.build(loadConfig(JSON.stringify(config)).model, { logSink: { write: () => {} } });
}

function buildErrors(config: unknown): string[] {
  try {
    build(config);
  } catch (e) {
    assert.ok(e instanceof ConfigErrors, String(e));
    return e.errors.map((x) => x.message);
  }
  assert.fail("expected ConfigErrors");
}

Deno.test("engine refuses dial and listen fields Deno cannot honour, naming each path", () => {
  assert.deepEqual(
    buildErrors({
      inbounds: [{ type: "mixed", listen_port: 1, bind_interface: "eth0", routing_mark: 7 }],
      outbounds: [
        { type: "direct", tag: "a", bind_interface: "eth0" },
        { type: "direct", tag: "b", routing_mark: "0x10" },
        { type: "direct", tag: "c", tcp_keep_alive_interval: "10s" },
      ],
    }),
    [
      "/outbounds/0/bind_interface: binding to an interface is not supported on this platform: Deno exposes no socket descriptor to set it on (SO_BINDTODEVICE)",
      "/outbounds/1/routing_mark: a routing mark is not supported on this platform: Deno exposes no socket descriptor to set it on (SO_MARK)",
      "/outbounds/2/tcp_keep_alive_interval: setting the keep-alive probe interval or count is not supported on this platform: Deno exposes no socket descriptor to set it on",
      "/inbounds/0/bind_interface: binding to an interface is not supported on this platform: Deno exposes no socket descriptor to set it on (SO_BINDTODEVICE)",
      "/inbounds/0/routing_mark: a routing mark is not supported on this platform: Deno exposes no socket descriptor to set it on (SO_MARK)",
    ],
  );
});

Deno.test("route defaults apply to outbounds that set none: default_mark is refused on each", () => {
  const errors = buildErrors({ outbounds: [{ type: "direct", tag: "d" }], route: { default_mark: 1 } });
  assert.deepEqual(errors, [
    "/outbounds/0/routing_mark: a routing mark is not supported on this platform: Deno exposes no socket descriptor to set it on (SO_MARK)",
  ]);
});

Deno.test("engine refuses conditions the runtime lacks, with the rule's path", () => {
  const errors = buildErrors({
    outbounds: [{ type: "direct", tag: "d" }],
    route: {
      rules: [
        { port: 53, action: "hijack-dns" },
        { process_name: ["curl"], outbound: "d" },
      ],
    },
  });
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^\/route\/rules\/1.*route rule condition "process_name" is not supported yet/);
});

Deno.test("engine refuses DNS servers it cannot build, naming the server", () => {
  const errors = buildErrors({
    dns: { servers: [{ type: "quic", tag: "q", server: "127.0.0.1", tls: { insecure: true } }] },
    outbounds: [{ type: "direct", tag: "d" }],
  });
  assert.equal(errors.length, 1);
  assert.match(
    errors[0],
    /^\/dns\/servers\/0\/type: DNS server "q": "tls.insecure" is not supported/,
  );
});

Deno.test("engine warnings: TCP Fast Open, reuse_addr; none for a plain config", () => {
  const e = build({
    dns: { servers: [{ type: "udp", tag: "u", server: "127.0.0.1" }] },
    outbounds: [{ type: "direct", tag: "d", tcp_fast_open: true, reuse_addr: true }],
  });
  assert.deepEqual(e.warnings, [
    "/outbounds/0/tcp_fast_open: TCP Fast Open is not available through Deno; connections use a normal handshake",
    "/outbounds/0/reuse_addr: has no effect on outgoing sockets through Deno; ignored",
  ]);
  assert.deepEqual(build({ inbounds: [{ type: "mixed", listen_port: 2080 }] }).warnings, []);
});

Deno.test("no outbounds means an implicit direct; route.final defaults to the first outbound", () => {
  const none = build({});
  assert.deepEqual([...none.outbounds.keys()], ["direct"]);
  const two = build({ outbounds: [{ type: "block", tag: "b" }, { type: "direct", tag: "d" }] });
  assert.equal(two.model.route.final, "b");
});
