/**
 * `h3`: DNS over HTTPS (RFC 8484) over HTTP/3 (RFC 9114), with a minimal HTTP/3 client of our own
 * on Deno.connectQuic (ALPN "h3"), since Deno's fetch has no HTTP/3. One connection is reused: a
 * control stream with SETTINGS (QPACK dynamic table off), then per query a request stream with
 * HEADERS (POST) and DATA (the query, id 0). Server unidirectional streams are read and dropped;
 * unknown frames are ignored. The connection is Deno's own (no detour).
 */
import type { Address, Dialer } from "../../adapter/mod.ts";
import { DnsError } from "../../common/errors.ts";
import { joinHostPort } from "../../common/address.ts";
import type { DnsTransport } from "../transport.ts";
import {
  decodeFieldSection,
  encodeFieldSection,
  encodeFrame,
  encodeSettings,
  type Field,
  FRAME_DATA,
  FRAME_HEADERS,
  FrameReader,
  SETTING_QPACK_BLOCKED_STREAMS,
  SETTING_QPACK_MAX_TABLE_CAPACITY,
  STREAM_CONTROL,
} from "./http3_frames.ts";
import { checkQuery, checkResponse, messageId, withId } from "./packet.ts";
import { connectQuic } from "./quic_bridge.ts";
import type { ClientTls } from "./tls_options.ts";
import { abortable, abortError, asDnsError, describe } from "./util.ts";

const MAX_RESPONSE = 65535;
/** Fields a request sets itself; configured headers with these names are dropped. */
const OWN = new Set(["content-type", "accept", "content-length", "host"]);

async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done) { /* discard */ }
  } catch { /* reset or closed */ }
}

interface Session {
  conn: Deno.QuicConn;
  /** The control stream stays open for the connection's life (closing it is a connection error). */
  control: WritableStreamDefaultWriter<Uint8Array>;
}

export class H3Transport implements DnsTransport {
  readonly type = "h3";
  private session?: Promise<Session>;
  private readonly what: string;
  private readonly fields: Field[];

  constructor(
    readonly tag: string,
    private readonly server: Address,
    path: string,
    headers: Record<string, string[]> | undefined,
    private readonly tls: ClientTls,
    /** The detour's dialer; undefined for Deno's own UDP socket. */
    private readonly viaDialer?: Dialer,
  ) {
    const p = path.startsWith("/") ? path : `/${path}`;
    this.what = `${describe("h3", server)}${p}`;
    let authority = server.port === 443 ? tls.serverName : joinHostPort(tls.serverName, server.port);
    const extra: Field[] = [];
    for (const [k, vs] of Object.entries(headers ?? {})) {
      const name = k.toLowerCase();
      if (name === "host" && vs.length > 0) authority = vs[0];
      if (OWN.has(name) || name.startsWith(":")) continue;
      for (const v of vs) extra.push([name, v]);
    }
    this.fields = [
      [":method", "POST"],
      [":scheme", "https"],
      [":authority", authority],
      [":path", p],
      ["content-type", "application/dns-message"],
      ["accept", "application/dns-message"],
      ...extra,
    ];
  }

  private open(): Promise<Session> {
    if (!this.session) {
      const p = this.connect();
      this.session = p;
      const drop = () => {
        if (this.session === p) this.session = undefined;
      };
      p.then((s) => s.conn.closed.then(drop, drop), drop);
    }
    return this.session;
  }

  private async connect(): Promise<Session> {
    const conn = await connectQuic(this.tag, this.server, {
      serverName: this.tls.serverName,
      caCerts: this.tls.caCerts,
      alpnProtocols: ["h3"],
    }, this.viaDialer);
    try {
      const stream = await conn.createUnidirectionalStream();
      const control = stream.getWriter();
      await control.write(
        new Uint8Array([
          STREAM_CONTROL,
          ...encodeSettings([[SETTING_QPACK_MAX_TABLE_CAPACITY, 0], [SETTING_QPACK_BLOCKED_STREAMS, 0]]),
        ]),
      );
      // The server's control, QPACK and push streams: read and dropped (our table is off).
      (async () => {
        try {
          for await (const s of conn.incomingUnidirectionalStreams) drain(s);
        } catch { /* closed */ }
      })();
      return { conn, control };
    } catch (e) {
      conn.close({ closeCode: 0x0101, reason: "" }); // H3_GENERAL_PROTOCOL_ERROR
      throw e;
    }
  }

  private async request(body: Uint8Array): Promise<Uint8Array> {
    const { conn } = await this.open();
    const stream = await conn.createBidirectionalStream();
    const writer = stream.writable.getWriter();
    const headers = encodeFrame(FRAME_HEADERS, encodeFieldSection(this.fields));
    const data = encodeFrame(FRAME_DATA, body);
    const out = new Uint8Array(headers.length + data.length);
    out.set(headers);
    out.set(data, headers.length);
    await writer.write(out);
    await writer.close();
    return await this.response(stream.readable);
  }

  /** Reads a response: interim (1xx) HEADERS skipped, then final HEADERS, DATA, optional trailers. */
  private async response(readable: ReadableStream<Uint8Array>): Promise<Uint8Array> {
    const frames = new FrameReader();
    const reader = readable.getReader();
    let status = 0;
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        frames.push(value);
        for (let f = frames.next(); f; f = frames.next()) {
          if (f.type === FRAME_HEADERS) {
            if (status >= 200) continue; // trailers
            const s = decodeFieldSection(f.payload).find(([n]) => n === ":status")?.[1];
            if (!s || !/^\d{3}$/.test(s)) throw new DnsError(`${this.what}: response has no valid ":status"`);
            status = Number(s);
            if (status >= 200 && status !== 200) throw new DnsError(`${this.what}: HTTP status ${status}`);
          } else if (f.type === FRAME_DATA) {
            if (status < 200) throw new DnsError(`${this.what}: DATA frame before the response headers`);
            total += f.payload.length;
            if (total > MAX_RESPONSE) throw new DnsError(`${this.what}: response is too long`);
            chunks.push(f.payload);
          }
          // Other frame types (reserved, unknown) are ignored (RFC 9114 §9).
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    if (status !== 200) throw new DnsError(`${this.what}: stream ended before the response headers`);
    if (frames.pending > 0) throw new DnsError(`${this.what}: stream ended inside a frame`);
    const body = new Uint8Array(total);
    let off = 0;
    for (const c of chunks) {
      body.set(c, off);
      off += c.length;
    }
    return body;
  }

  async exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    checkQuery(query);
    if (signal.aborted) throw abortError(signal, this.what);
    const sent = withId(query, 0);
    let body: Uint8Array;
    try {
      body = await abortable(this.request(sent), signal, this.what);
    } catch (e) {
      throw asDnsError(e, this.what);
    }
    checkResponse(sent, body);
    return withId(body, messageId(query));
  }

  close(): void {
    const s = this.session;
    this.session = undefined;
    s?.then((x) => x.conn.close({ closeCode: 0x0100, reason: "" }), () => {}); // H3_NO_ERROR
  }
}
