/**
 * One conformance suite for every inbound/outbound pair in pairs.ts (svc outbound X → svc
 * inbound X, behind a mixed inbound the test clients talk SOCKS5 to): bulk TCP both ways, half-
 * close, 50 concurrent streams, UDP, wrong credentials, garbage, stalled peers. Each case checks
 * bytes end to end; the real curl does the download.
 */
import assert from "node:assert/strict";
import { blobOrigin, curlBytes } from "../support/blob_origin.ts";
import { startEngine } from "../support/engine.ts";
import { inboundPort, udpEcho } from "../support/e2e.ts";
import { Socks5UdpClient } from "../support/socks5_udp.ts";
import { certDir } from "../support/trojan_peers.ts";
import {
  type Credentials,
  goodCredentials,
  type Pair,
  type PairEnv,
  PAIRS,
  wrongCredentials,
} from "./pairs.ts";
import {
  afterEofServer,
  echoServer,
  randomBytes,
  readAll,
  sameBytes,
  socks5Connect,
  stallServer,
  writeAll,
} from "./wire_clients.ts";

const certs = await certDir();
const env: PairEnv = { certs: certs.path, ca: certs.ca };
addEventListener("unload", () => Deno.removeSync(certs.path, { recursive: true }));

function serverEngine(pair: Pair) {
  return startEngine({
    log: { level: "warn" },
    inbounds: [{
      ...pair.inbound(env, pair.credentials?.good ?? goodCredentials),
      tag: "in",
      listen: "127.0.0.1",
      listen_port: 0,
    }],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
}

function clientEngine(pair: Pair, port: number, creds: Credentials, extra: Record<string, unknown> = {}) {
  return startEngine({
    log: { level: "warn" },
    inbounds: [{ type: "mixed", tag: "entry", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [{ ...pair.outbound(env, port, creds), ...extra, tag: "out" }],
  });
}

/** Resolves to `p`'s value, or rejects after `ms` naming `what`. */
async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((
        _,
        reject,
      ) => (timer = setTimeout(() => reject(new Error(`${what}: over ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `data` through the entry to an echo server and checks every byte comes back. */
async function echoThrough(entry: number, echoPort: number, data: Uint8Array): Promise<void> {
  const c = await socks5Connect(entry, echoPort);
  try {
    const [, back] = await Promise.all([
      writeAll(c, data).then(() => c.closeWrite()),
      readAll(c, data.length),
    ]);
    assert.ok(sameBytes(back, data), `echo of ${data.length} bytes came back as ${back.length} bytes`);
  } finally {
    c.close();
  }
}

/** Opens a stream to the inbound as a client of its transport (TLS when the pair uses it). */
async function rawToInbound(pair: Pair, port: number): Promise<Deno.Conn> {
  if (!pair.tls) return await Deno.connect({ hostname: "127.0.0.1", port });
  const c = await Deno.connectTls({ hostname: "localhost", port, caCerts: [env.ca] });
  await c.handshake();
  return c;
}

for (const pair of PAIRS) {
  Deno.test(`conformance: ${pair.name}`, async (t) => {
    await using server = await serverEngine(pair);
    const port = inboundPort(server, "in");
    const good = pair.credentials?.good ?? goodCredentials;
    await using client = await clientEngine(pair, port, good);
    const entry = inboundPort(client, "entry");
    using echo = echoServer();

    await t.step("bulk TCP: 4 MiB download with curl and 4 MiB echoed, byte for byte", async () => {
      await using o = blobOrigin(4 * 1024 * 1024);
      await curlBytes(["-x", `socks5h://127.0.0.1:${entry}`], o.url(), o.body);
      await echoThrough(entry, echo.port, randomBytes(4 * 1024 * 1024));
    });

    await t.step("half-close: the request's end of stream still gets the whole response", async () => {
      const tail = randomBytes(1024 * 1024);
      using responder = afterEofServer((req) => new Uint8Array([...req, ...tail]));
      const request = new TextEncoder().encode("GET /half-close HTTP/1.0\r\n\r\n");
      const c = await socks5Connect(entry, responder.port);
      try {
        await writeAll(c, request);
        await c.closeWrite();
        const got = await within(5000, "response after half-close", readAll(c));
        assert.ok(sameBytes(got, new Uint8Array([...request, ...tail])), `got ${got.length} bytes`);
      } finally {
        c.close();
      }
    });

    await t.step("50 concurrent streams, 64 KiB each way", async () => {
      await within(
        20_000,
        "50 streams",
        Promise.all(Array.from({ length: 50 }, () => echoThrough(entry, echo.port, randomBytes(64 * 1024)))),
      );
    });

    await t.step({
      name: "UDP: datagrams of several sizes to an echo server and back",
      ignore: !pair.udp,
      fn: async () => {
        using udp = udpEcho();
        using c = await Socks5UdpClient.open({ host: "127.0.0.1", port: entry });
        for (const size of [1, 100, 1200, 8000]) {
          const payload = randomBytes(size);
          await c.send({ host: "127.0.0.1", port: udp.port }, payload);
          const got = await c.receive(3000);
          assert.ok(got, `echo of a ${size}-byte datagram`);
          assert.ok(sameBytes(got.payload, payload), `datagram of ${size} bytes intact`);
          assert.deepEqual(got.from, { host: "127.0.0.1", port: udp.port });
        }
      },
    });

    await t.step("wrong credentials: refused, and the inbound keeps serving", async () => {
      await using wrong = await clientEngine(pair, port, pair.credentials?.wrong ?? wrongCredentials);
      const before = echo.accepted();
      let echoed: Uint8Array = new Uint8Array();
      try {
        const c = await socks5Connect(inboundPort(wrong, "entry"), echo.port);
        try {
          await writeAll(c, new TextEncoder().encode("ping")).catch(() => {});
          echoed = await within(5000, "refusal", readAll(c));
        } finally {
          c.close();
        }
      } catch { /* refused at the SOCKS reply: also correct */ }
      assert.equal(echoed.length, 0, "nothing may come back with wrong credentials");
      assert.equal(echo.accepted(), before, "the destination must not be reached");
      await echoThrough(entry, echo.port, randomBytes(1000));
    });

    await t.step(
      "garbage: closed promptly, input not buffered without bound, inbound keeps serving",
      async () => {
        const garbage = randomBytes(64 * 1024);
        garbage[0] = 0xff; // no protocol here starts with 0xff, so none waits for more bytes
        const c = await rawToInbound(pair, port);
        try {
          await writeAll(c, garbage).catch(() => {});
          const gap = pair.knownGaps?.garbageClose;
          if (gap) {
            await t.step({ name: `closed within 3 s (known gap: ${gap})`, ignore: true, fn: () => {} });
          } else await within(3000, "close after garbage", readAll(c));
        } finally {
          c.close();
        }
        const floodGap = pair.knownGaps?.garbageFlood;
        if (floodGap) {
          await t.step({ name: `flood refused (known gap: ${floodGap})`, ignore: true, fn: () => {} });
        } else {
          // A flood: the inbound stops reading (closes) long before 32 MiB.
          const flood = await rawToInbound(pair, port);
          let sent = 0;
          try {
            const chunk = randomBytes(64 * 1024);
            chunk[0] = 0xff;
            await within(
              10_000,
              "flood refused",
              (async () => {
                while (sent < 32 * 1024 * 1024) sent += await flood.write(chunk);
              })().catch(() => {}),
            );
          } finally {
            flood.close();
          }
          assert.ok(sent < 32 * 1024 * 1024, `the inbound swallowed ${sent} bytes of garbage`);
        }
        await echoThrough(entry, echo.port, randomBytes(1000));
      },
    );

    const gap = pair.knownGaps?.stalledServer;
    await t.step({
      name: `stalled server: the dial fails within connect_timeout${gap ? ` (known gap: ${gap})` : ""}`,
      ignore: gap !== undefined,
      fn: async () => {
        using silent = stallServer();
        await using stalled = await clientEngine(pair, silent.port, good, {
          connect_timeout: "1s",
        });
        const started = Date.now();
        const echoed = await within(
          6000,
          "dial to a silent server",
          (async () => {
            let c: Deno.Conn;
            try {
              c = await socks5Connect(inboundPort(stalled, "entry"), echo.port);
            } catch {
              return new Uint8Array(); // refused at the SOCKS reply
            }
            try {
              await writeAll(c, new TextEncoder().encode("ping")).catch(() => {});
              return await readAll(c);
            } finally {
              c.close();
            }
          })(),
        );
        assert.equal(echoed.length, 0);
        assert.ok(silent.accepted() > 0, "the outbound reached the silent server");
        assert.ok(Date.now() - started < 4000, `the dial took ${Date.now() - started} ms`);
      },
    });

    await t.step("silent clients: twenty open connections that say nothing block nobody", async () => {
      const idle = await Promise.all(
        Array.from({ length: 20 }, () => Deno.connect({ hostname: "127.0.0.1", port })),
      );
      try {
        await within(
          10_000,
          "serving beside silent clients",
          echoThrough(entry, echo.port, randomBytes(256 * 1024)),
        );
      } finally {
        idle.forEach((c) => c.close());
      }
    });
  });
}
