/**
 * A small HTTP/1.1 GET through an outbound (a provider's `download_detour` or the default one),
 * https over the engine's client layers. Written here rather than with fetch() because the request
 * must travel through an svc outbound; bodies are capped so a hostile server cannot exhaust memory.
 */
import type { ClientLayerOptions, ClientLayers, Conn, Metadata, Outbound } from "../../adapter/mod.ts";
import { DialError, ProtocolError } from "../../common/errors.ts";
import { OutboundTls } from "../../config/model/tls.ts";

export interface GetOptions {
  userAgent: string;
  maxBytes: number;
  timeoutMs: number;
  clientLayers(options: ClientLayerOptions): ClientLayers;
}

const MAX_HEAD = 64 * 1024;
const MAX_REDIRECTS = 3;

export async function httpGet(via: Outbound, url: string, o: GetOptions): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(o.timeoutMs);
  for (let hop = 0;; hop++) {
    const r = await once(via, new URL(url), o, signal);
    if (r.location && hop < MAX_REDIRECTS) {
      url = new URL(r.location, url).href;
      continue;
    }
    if (r.status < 200 || r.status > 299) {
      throw new DialError(`Download of "${url}" got HTTP status ${r.status}`);
    }
    return r.body;
  }
}

async function once(via: Outbound, u: URL, o: GetOptions, signal: AbortSignal) {
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new DialError(`Provider URL must be http or https: "${u.href}"`);
  }
  const destination = {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: Number(u.port || (u.protocol === "https:" ? 443 : 80)),
  };
  const metadata: Metadata = {
    inbound: "",
    inboundType: "",
    network: "tcp",
    source: { host: "0.0.0.0", port: 0 },
    destination,
  };
  const raw = () => via.dial(destination, metadata, signal);
  const conn: Conn = u.protocol === "https:"
    ? await o.clientLayers({
      server: destination,
      tls: OutboundTls.parse({ enabled: true, server_name: destination.host }),
    }).open(raw, signal)
    : await raw();
  const abort = () => conn.close();
  signal.addEventListener("abort", abort, { once: true });
  try {
    const head =
      `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUser-Agent: ${o.userAgent}\r\n` +
      "Accept: */*\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n";
    const bytes = new TextEncoder().encode(head);
    for (let off = 0; off < bytes.length;) off += await conn.write(bytes.subarray(off));
    return await readResponse(conn, o.maxBytes, signal);
  } catch (e) {
    if (signal.aborted) throw new DialError(`Download of "${u.href}" timed out`);
    throw e;
  } finally {
    signal.removeEventListener("abort", abort);
    conn.close();
  }
}

/** Reads the whole response (Content-Length, chunked, or until close), at most `max` body bytes. */
export async function readResponse(conn: Conn, max: number, signal?: AbortSignal) {
  let buf = new Uint8Array(64 * 1024);
  let len = 0;
  let headEnd = -1;
  let status = 0;
  let length = -1;
  let chunked = false;
  let location: string | undefined;
  while (true) {
    if (len === buf.length) {
      if (headEnd < 0 && len >= MAX_HEAD) throw new ProtocolError("Response headers are too large");
      const grown = new Uint8Array(buf.length * 2);
      grown.set(buf);
      buf = grown;
    }
    const n = await conn.read(buf.subarray(len));
    if (signal?.aborted) throw new DialError("Download timed out");
    if (n !== null) len += n;
    if (headEnd < 0) {
      const text = new TextDecoder("latin1").decode(buf.subarray(0, Math.min(len, MAX_HEAD)));
      const i = text.indexOf("\r\n\r\n");
      if (i < 0) {
        if (n === null) throw new ProtocolError("Connection closed before the response headers");
        continue;
      }
      headEnd = i + 4;
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!m) throw new ProtocolError(`Response is not HTTP: "${text.slice(0, 20)}"`);
      status = Number(m[1]);
      const header = (name: string) =>
        new RegExp(`\\r\\n${name}:[ \\t]*([^\\r]*)`, "i").exec(text.slice(0, i + 2))?.[1]?.trim();
      length = Number(header("content-length") ?? -1);
      chunked = /chunked/i.test(header("transfer-encoding") ?? "");
      if (status >= 300 && status < 400) location = header("location");
      if (location) return { status, location, body: new Uint8Array(0) };
    }
    const bodyLen = len - headEnd;
    if (length > max || bodyLen > max + (chunked ? 64 * 1024 : 0)) {
      throw new ProtocolError(`Body is larger than the ${max} byte limit`);
    }
    if (!chunked && length >= 0 && bodyLen >= length) {
      return { status, location, body: buf.slice(headEnd, headEnd + length) };
    }
    if (n === null) {
      const body = buf.slice(headEnd, len);
      if (chunked) return { status, location, body: dechunk(body, max) };
      if (length >= 0) throw new ProtocolError("Connection closed before the end of the body");
      return { status, location, body };
    }
  }
}

/** Decodes a chunked body read to the end. */
export function dechunk(data: Uint8Array, max: number): Uint8Array {
  const out = new Uint8Array(Math.min(data.length, max));
  let o = 0;
  let p = 0;
  while (true) {
    let e = p;
    while (e + 1 < data.length && !(data[e] === 13 && data[e + 1] === 10)) e++;
    if (e + 1 >= data.length) throw new ProtocolError("Chunked body ends early");
    const size = parseInt(new TextDecoder().decode(data.subarray(p, e)).split(";")[0], 16);
    if (!Number.isFinite(size) || size < 0) throw new ProtocolError("Bad chunk size");
    if (size === 0) return out.slice(0, o);
    p = e + 2;
    if (p + size > data.length) throw new ProtocolError("Chunked body ends early");
    if (o + size > out.length) throw new ProtocolError(`Body is larger than the ${max} byte limit`);
    out.set(data.subarray(p, p + size), o);
    o += size;
    p += size + 2;
  }
}
