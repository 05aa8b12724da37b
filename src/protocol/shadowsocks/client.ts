/**
 * The client side of a shadowsocks stream (outbound): the request header goes out with the first
 * payload; the response salt (and for SIP022 the response header) is read before the first byte.
 */
import type { Address, Conn } from "../../adapter/mod.ts";
import { createAead } from "../../crypto/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { ChunkReader } from "./chunk_reader.ts";
import { ChunkWriter } from "./chunk_writer.ts";
import { aeadSubkey, aesEncryptBlock, identitySubkey, pskHash, sessionSubkey } from "./kdf.ts";
import type { Method } from "./method.ts";
import { ShadowsocksConn } from "./ss_conn.ts";
import {
  addressLength,
  checkTimestamp,
  encodeAddressInto,
  getTimestamp,
  HEADER_CLIENT,
  HEADER_SERVER,
  MAX_PADDING,
  putTimestamp,
} from "./wire.ts";
import { PlainConn } from "./plain_conn.ts";

export interface ClientOptions {
  method: Method;
  /** SIP004: one key. SIP022: iPSK…, uPSK (identity headers for all but the last). */
  keys: Uint8Array[];
  /** Milliseconds since the epoch (injected for tests). */
  now?: () => number;
}

function random(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** Wraps a stream to the server into a stream to `destination`. */
export function clientConn(inner: Conn, destination: Address, o: ClientOptions): Conn {
  const m = o.method;
  if (m.kind === "none") return new PlainConn(inner, destination);
  const reader = new ChunkReader(inner, m.maxPayload, m.kind === "2022");
  const conn = new ShadowsocksConn(inner, reader, true);
  const key = o.keys[o.keys.length - 1];
  const salt = random(m.saltSize);
  const now = o.now ?? Date.now;
  if (m.kind === "aead") {
    const w = new ChunkWriter(createAead(m.aead, aeadSubkey(key, salt)), m.maxPayload);
    conn.writer = w;
    conn.first = (p) => {
      const alen = addressLength(destination);
      const plain = new Uint8Array(alen + p.length);
      encodeAddressInto(destination, plain, 0);
      plain.set(p, alen);
      const out = w.buffer(m.saltSize + w.sealedSize(plain.length));
      out.set(salt);
      return out.subarray(0, w.sealChunks(plain, out, m.saltSize));
    };
    conn.readHead = async () => {
      if (!(await reader.hasData())) return false;
      reader.aead = createAead(m.aead, aeadSubkey(key, await reader.readRaw(m.saltSize)));
      return true;
    };
    return conn;
  }
  const w = new ChunkWriter(createAead(m.aead, sessionSubkey(key, salt)), m.maxPayload);
  conn.writer = w;
  conn.first = (p) => {
    const alen = addressLength(destination);
    const pad = p.length === 0 ? 1 + Math.floor(Math.random() * MAX_PADDING) : 0;
    const inHeader = Math.min(p.length, 0xffff - alen - 2 - pad);
    const variable = new Uint8Array(alen + 2 + pad + inHeader);
    let off = encodeAddressInto(destination, variable, 0);
    variable[off++] = pad >> 8;
    variable[off++] = pad & 0xff;
    variable.set(p.subarray(0, inHeader), off + pad);
    const fixed = new Uint8Array(11);
    fixed[0] = HEADER_CLIENT;
    putTimestamp(fixed, 1, now() / 1000);
    fixed[9] = variable.length >> 8;
    fixed[10] = variable.length & 0xff;
    const rest = p.subarray(inHeader);
    const eihCount = o.keys.length - 1;
    const out = w.buffer(m.saltSize + 16 * eihCount + 27 + variable.length + 16 + w.sealedSize(rest.length));
    out.set(salt);
    let at = m.saltSize;
    for (let i = 0; i < eihCount; i++) {
      out.set(aesEncryptBlock(identitySubkey(o.keys[i], salt), pskHash(o.keys[i + 1])), at);
      at += 16;
    }
    at = w.sealBlock(fixed, out, at);
    at = w.sealBlock(variable, out, at);
    return out.subarray(0, w.sealChunks(rest, out, at));
  };
  conn.readHead = async () => {
    if (!(await reader.hasData())) return false;
    const responseSalt = await reader.readRaw(m.saltSize);
    reader.aead = createAead(m.aead, sessionSubkey(key, responseSalt));
    const fixed = await reader.readSealed(1 + 8 + m.saltSize + 2);
    if (fixed[0] !== HEADER_SERVER) throw new ProtocolError(`Bad response header type ${fixed[0]}`);
    checkTimestamp(getTimestamp(fixed, 1), now() / 1000);
    const echoed = fixed.subarray(9, 9 + m.saltSize);
    if (!echoed.every((b, i) => b === salt[i])) {
      throw new ProtocolError("Response is not for this request salt");
    }
    reader.setNextLength((fixed[9 + m.saltSize] << 8) | fixed[10 + m.saltSize]);
    return true;
  };
  return conn;
}
