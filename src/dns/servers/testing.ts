/** Helpers for the transports' unit tests: a dialer, queries, and fake servers on loopback. */
import type { Dialer } from "../../adapter/mod.ts";
import { NetDialer } from "../../net/dialer.ts";
import { SystemResolver } from "../../net/resolver.ts";
import { closeQuietly, writeAll } from "../../net/relay.ts";
import { decodeMessage, encodeMessage, FLAG_RD, type Message } from "./packet.ts";

export function testDialer(): Dialer {
  return new NetDialer({ resolver: new SystemResolver() });
}

export function query(name: string, type = "A", id = 0x1234): Uint8Array {
  return encodeMessage({ id, type: "query", flags: FLAG_RD, questions: [{ name, type }] });
}

/** A response to `q` with A/AAAA answers for each address given. */
export function answer(q: Uint8Array, addrs: string[], extra: Partial<Message> = {}): Uint8Array {
  const m = decodeMessage(q);
  const question = m.questions![0];
  return encodeMessage({
    id: m.id,
    type: "response",
    flags: FLAG_RD,
    questions: [question],
    answers: addrs.map((a) => ({ name: question.name, type: question.type, ttl: 60, data: a })),
    ...extra,
  });
}

export function addresses(b: Uint8Array): string[] {
  return (decodeMessage(b).answers ?? []).map((a) => String(a.data));
}

type Reply = (q: Uint8Array) => Uint8Array[] | Promise<Uint8Array[]>;

/** A UDP server on 127.0.0.1 answering each datagram with what `reply` returns. */
export function fakeUdpServer(reply: Reply): { port: number; close(): void } {
  const sock = Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: 0 });
  (async () => {
    try {
      for await (const [data, addr] of sock) {
        for (const r of await reply(data)) await sock.send(r, addr);
      }
    } catch { /* closed */ }
  })();
  return { port: (sock.addr as Deno.NetAddr).port, close: () => closeQuietly(sock) };
}

/** A length-prefixed TCP server; `reply` gets each query and its connection number. */
export function fakeTcpServer(
  reply: (q: Uint8Array, conn: number) => Uint8Array[] | Promise<Uint8Array[]>,
  opts: { closeAfter?: number } = {},
): { port: number; connections: () => number; close(): Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  let count = 0;
  const serveOne = async (c: Deno.Conn, n: number) => {
    conns.add(c);
    let buf = new Uint8Array(0);
    let served = 0;
    const chunk = new Uint8Array(65536);
    try {
      while (true) {
        const r = await c.read(chunk);
        if (r === null) break;
        const next = new Uint8Array(buf.length + r);
        next.set(buf);
        next.set(chunk.subarray(0, r), buf.length);
        buf = next;
        while (buf.length >= 2 && buf.length >= 2 + ((buf[0] << 8) | buf[1])) {
          const len = (buf[0] << 8) | buf[1];
          const q = buf.slice(2, 2 + len);
          buf = buf.slice(2 + len);
          // Answers go out as they are ready, so a test can answer out of order.
          const sendAll = async (outs: Uint8Array[]) => {
            for (const out of outs) {
              const f = new Uint8Array(out.length + 2);
              f[0] = out.length >> 8;
              f[1] = out.length & 0xff;
              f.set(out, 2);
              await writeAll(c, f).catch(() => {});
            }
          };
          const replied = Promise.resolve(reply(q, n)).then(sendAll);
          if (opts.closeAfter) await replied;
          if (opts.closeAfter && ++served >= opts.closeAfter) throw new Error("close");
        }
      }
    } catch { /* closed */ }
    conns.delete(c);
    closeQuietly(c);
  };
  const loop = (async () => {
    try {
      for await (const c of listener) serveOne(c, ++count);
    } catch { /* closed */ }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    connections: () => count,
    close: async () => {
      closeQuietly(listener);
      for (const c of conns) closeQuietly(c);
      await loop;
    },
  };
}
