/**
 * `quic`: DNS over QUIC (RFC 9250) with Deno.connectQuic: ALPN "doq", one connection reused,
 * each query on its own bidirectional stream as a 2-byte length and the message with id 0; the
 * client finishes its side after the query. With a detour the QUIC datagrams are bridged through
 * the detour's packet connection (quic_bridge.ts).
 */
import type { Address, Dialer } from "../../adapter/mod.ts";
import { DnsError } from "../../common/errors.ts";
import type { DnsTransport } from "../transport.ts";
import { connectQuic } from "./quic_bridge.ts";
import { checkQuery, checkResponse, messageId, withId } from "./packet.ts";
import type { ClientTls } from "./tls_options.ts";
import { abortable, abortError, asDnsError, describe } from "./util.ts";

async function readAll(stream: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) throw new DnsError(`DoQ response longer than ${max} bytes`);
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

export class QuicTransport implements DnsTransport {
  readonly type = "quic";
  private conn?: Promise<Deno.QuicConn>;
  private readonly what: string;

  constructor(
    readonly tag: string,
    private readonly server: Address,
    private readonly tls: ClientTls,
    /** The detour's dialer; undefined for Deno's own UDP socket. */
    private readonly viaDialer?: Dialer,
  ) {
    this.what = describe("quic", server);
  }

  private open(): Promise<Deno.QuicConn> {
    if (!this.conn) {
      const p = connectQuic(this.tag, this.server, {
        serverName: this.tls.serverName,
        caCerts: this.tls.caCerts,
        alpnProtocols: ["doq"],
      }, this.viaDialer);
      this.conn = p;
      const drop = () => {
        if (this.conn === p) this.conn = undefined;
      };
      p.then((c) => c.closed.then(drop, drop), drop);
      return p;
    }
    return this.conn;
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    checkQuery(query);
    if (signal.aborted) throw abortError(signal, this.what);
    const sent = withId(query, 0);
    const work = async () => {
      const conn = await this.open();
      const stream = await conn.createBidirectionalStream();
      const frame = new Uint8Array(sent.length + 2);
      frame[0] = sent.length >> 8;
      frame[1] = sent.length & 0xff;
      frame.set(sent, 2);
      const writer = stream.writable.getWriter();
      await writer.write(frame);
      await writer.close();
      const data = await readAll(stream.readable, 65537);
      if (data.length < 2) throw new DnsError(`${this.what}: stream ended before the response`);
      const len = (data[0] << 8) | data[1];
      if (data.length - 2 < len) throw new DnsError(`${this.what}: truncated response`);
      return data.subarray(2, 2 + len);
    };
    let body: Uint8Array;
    try {
      body = await abortable(work(), signal, this.what);
    } catch (e) {
      throw asDnsError(e, this.what);
    }
    checkResponse(sent, body);
    return withId(body, messageId(query));
  }

  close(): void {
    const c = this.conn;
    this.conn = undefined;
    c?.then((x) => x.close({ closeCode: 0, reason: "" }), () => {});
  }
}
