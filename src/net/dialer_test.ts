import assert from "node:assert/strict";
import { DialError } from "../common/errors.ts";
import { NetDialer, withTimeout } from "./dialer.ts";

Deno.test("withTimeout: rejects after the timeout and disposes a late result", async () => {
  const late = Promise.withResolvers<string>();
  const disposed: string[] = [];
  const start = performance.now();
  await assert.rejects(withTimeout(late.promise, 50, undefined, (v) => disposed.push(v)), DialError);
  assert.ok(performance.now() - start >= 45);
  late.resolve("conn");
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(disposed, ["conn"]);
});

Deno.test("withTimeout: an abort signal ends the wait at once", async () => {
  const never = new Promise<string>(() => {});
  const ac = new AbortController();
  const p = withTimeout(never, 10_000, ac.signal, () => {});
  ac.abort(new Error("closed by API"));
  await assert.rejects(p, /closed by API/);
});

Deno.test("NetDialer: uses addresses a resolve rule found, tries the next on failure", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const lookups: string[] = [];
  const dialer = new NetDialer({ resolver: { lookup: (n) => (lookups.push(n), Promise.resolve([])) } });
  const accepted = listener.accept();
  // ::1 on this port refuses; 127.0.0.1 answers.
  const conn = await dialer.dial({ host: "svc.test", port }, {
    inbound: "t",
    inboundType: "t",
    network: "tcp",
    source: { host: "127.0.0.1", port: 1 },
    destination: { host: "svc.test", port },
    resolvedAddresses: ["::1", "127.0.0.1"],
  });
  (await accepted).close();
  conn.close();
  listener.close();
  assert.deepEqual(lookups, [], "no lookup when a resolve rule already found addresses");
});
