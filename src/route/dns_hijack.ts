/**
 * The `hijack-dns` action: the client's DNS queries are answered by the DNS subsystem instead of
 * being sent on. Streams carry RFC 7766 length-prefixed messages; datagrams one message each.
 */
import type { Conn, DnsService, Metadata, Packet, PacketConn } from "../adapter/mod.ts";
import { BufferedConn } from "../net/buffered_conn.ts";
import { canRespond } from "../net/udp_server.ts";
import { writeAll } from "../net/relay.ts";

const MAX_MESSAGE = 65535;

export async function hijackStream(conn: Conn, dns: DnsService, metadata: Metadata): Promise<void> {
  const b = conn instanceof BufferedConn ? conn : new BufferedConn(conn);
  try {
    while (true) {
      if (b.buffered().length < 2 && !(await fillTo(b, 2))) return;
      const len = (b.buffered()[0] << 8) | b.buffered()[1];
      if (len === 0 || len > MAX_MESSAGE) return;
      if (!(await fillTo(b, 2 + len))) return;
      const query = b.buffered().slice(2, 2 + len);
      b.consume(2 + len);
      const answer = await dns.exchange(query, metadata);
      if (answer.length === 0) return;
      const framed = new Uint8Array(2 + answer.length);
      framed[0] = answer.length >> 8;
      framed[1] = answer.length & 0xff;
      framed.set(answer, 2);
      await writeAll(b, framed);
    }
  } finally {
    b.close();
  }
}

async function fillTo(b: BufferedConn, n: number): Promise<boolean> {
  while (b.buffered().length < n) {
    if (!(await b.fill(MAX_MESSAGE + 2))) return false;
  }
  return true;
}

/** Answers each datagram; ends when the session is idle for `idleMs` or closed. */
export async function hijackPackets(
  conn: PacketConn,
  queued: Packet[],
  dns: DnsService,
  metadata: Metadata,
  idleMs: number,
): Promise<void> {
  const answer = async (p: Packet) => {
    const reply = await dns.exchange(p.data, metadata);
    if (reply.length > 0) await conn.writePacket(reply, p.addr).catch(() => {});
  };
  // One idle timer per session, re-armed when it fires early (not one per datagram: timers are
  // costly at tens of thousands of queries a second); each read races a plain promise it resolves.
  let last = Date.now();
  let wake: ((p: null) => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const left = last + idleMs - Date.now();
    if (left > 0) timer = setTimeout(check, left);
    else wake?.(null);
  };
  timer = setTimeout(check, idleMs);
  // Cached answers go back from the socket's receive loop with no promise per query.
  const cached = dns.exchangeCached?.bind(dns);
  if (cached && canRespond(conn)) {
    conn.setResponder((data) => {
      last = Date.now();
      return cached(data, metadata);
    });
  }
  try {
    for (const p of queued) void answer(p);
    while (true) {
      const next = await Promise.race([conn.readPacket(), new Promise<null>((r) => (wake = r))]);
      wake = undefined;
      if (!next) return;
      last = Date.now();
      void answer(next); // queries are answered concurrently, each as soon as it is ready
    }
  } finally {
    clearTimeout(timer);
    conn.close();
  }
}
