/**
 * The server side of a shadowsocks stream (inbound): finds the user (by trial decryption for
 * SIP004, by identity header for SIP022 multi-user), checks time and replays, reads the target.
 */
import type { Address, Conn } from "../../adapter/mod.ts";
import { type Aead, createAead } from "../../crypto/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { ChunkReader } from "./chunk_reader.ts";
import { ChunkWriter } from "./chunk_writer.ts";
import { aeadSubkey, aesDecryptBlock, identitySubkey, sessionSubkey } from "./kdf.ts";
import type { Method } from "./method.ts";
import type { SaltFilter } from "./salt_filter.ts";
import { ShadowsocksConn } from "./ss_conn.ts";
import type { UserTable } from "./users.ts";
import {
  checkTimestamp,
  decodeAddress,
  getTimestamp,
  HEADER_CLIENT,
  HEADER_SERVER,
  putTimestamp,
} from "./wire.ts";

export interface ServerOptions {
  method: Method;
  users: () => UserTable;
  salts: SaltFilter;
  now?: () => number;
}

export interface Accepted {
  conn: Conn;
  destination: Address;
  /** The user's name, for `auth_user` rules. */
  user?: string;
}

/** Thrown for anything a prober could send: the inbound then drains instead of answering. */
export class AuthError extends ProtocolError {}

const ZERO_NONCE = new Uint8Array(12);

export async function serverHandshake(inner: Conn, o: ServerOptions): Promise<Accepted> {
  const m = o.method;
  const table = o.users();
  if (m.kind === "none") {
    const b = new BufferedConn(inner);
    let parsed;
    while (true) {
      try {
        parsed = decodeAddress(b.buffered());
        break;
      } catch (e) {
        if (!(e instanceof ProtocolError) || !e.message.startsWith("Truncated")) throw e;
        if (!(await b.fill(512))) throw new ProtocolError("Connection closed during handshake");
      }
    }
    b.consume(parsed.next);
    return { conn: b, destination: parsed.addr };
  }
  const reader = new ChunkReader(inner, m.maxPayload, m.kind === "2022");
  const conn = new ShadowsocksConn(inner, reader);
  const now = o.now ?? Date.now;
  const salt = await reader.readRaw(m.saltSize);
  let user = table.users[0];
  let payload: Uint8Array;
  if (m.kind === "aead") {
    // Which user? Try each key on the first length chunk (what ss-libev-style multi-user does).
    const sealed = (await reader.peek(18)).subarray(0, 18);
    const out = new Uint8Array(2);
    let found: Aead | undefined;
    for (const u of table.users) {
      const a = createAead(m.aead, aeadSubkey(u.key, salt));
      if (a.open(ZERO_NONCE, sealed, out) === 2) {
        found = a;
        user = u;
        break;
      }
      a.dispose();
    }
    if (!found) throw new AuthError("Authentication failed: no user's key opens the request");
    reader.aead = found;
    if (!o.salts.add(salt)) throw new AuthError("Replayed salt");
    payload = await reader.readChunk();
  } else {
    if (table.serverKey) {
      const eih = await reader.readRaw(16);
      const hash = aesDecryptBlock(identitySubkey(table.serverKey, salt), eih);
      const u = table.byHash.get(String.fromCharCode(...hash));
      if (!u) throw new AuthError("Authentication failed: unknown identity header");
      user = u;
    }
    reader.aead = createAead(m.aead, sessionSubkey(user.key, salt));
    let fixed: Uint8Array;
    try {
      fixed = await reader.readSealed(11);
    } catch (e) {
      throw new AuthError(`Authentication failed: ${(e as Error).message}`);
    }
    if (fixed[0] !== HEADER_CLIENT) throw new AuthError(`Bad request header type ${fixed[0]}`);
    checkTimestamp(getTimestamp(fixed, 1), now() / 1000);
    if (!o.salts.add(salt)) throw new AuthError("Replayed salt");
    const variable = await reader.readSealed((fixed[9] << 8) | fixed[10]);
    const { addr, next } = decodeAddress(variable);
    if (variable.length < next + 2) throw new ProtocolError("Truncated request header");
    const pad = (variable[next] << 8) | variable[next + 1];
    if (variable.length < next + 2 + pad) throw new ProtocolError("Truncated request padding");
    payload = variable.subarray(next + 2 + pad);
    if (payload.length === 0 && pad === 0) throw new ProtocolError("Request has neither payload nor padding");
    conn.pending = payload.length > 0 ? payload : undefined;
    attachServerWriter2022(conn, m, user.key, salt, now);
    return { conn, destination: addr, user: user.name };
  }
  const { addr, next } = decodeAddress(payload);
  if (next < payload.length) conn.pending = payload.subarray(next);
  const responseSalt = crypto.getRandomValues(new Uint8Array(m.saltSize));
  const w = new ChunkWriter(createAead(m.aead, aeadSubkey(user.key, responseSalt)), m.maxPayload);
  conn.writer = w;
  conn.first = (p) => {
    const out = w.buffer(m.saltSize + w.sealedSize(p.length));
    out.set(responseSalt);
    return out.subarray(0, w.sealChunks(p, out, m.saltSize));
  };
  return { conn, destination: addr, user: user.name };
}

function attachServerWriter2022(
  conn: ShadowsocksConn,
  m: Method,
  key: Uint8Array,
  requestSalt: Uint8Array,
  now: () => number,
): void {
  const responseSalt = crypto.getRandomValues(new Uint8Array(m.saltSize));
  const w = new ChunkWriter(createAead(m.aead, sessionSubkey(key, responseSalt)), m.maxPayload);
  conn.writer = w;
  conn.first = (p) => {
    const firstLen = Math.min(p.length, m.maxPayload);
    const fixed = new Uint8Array(1 + 8 + m.saltSize + 2);
    fixed[0] = HEADER_SERVER;
    putTimestamp(fixed, 1, now() / 1000);
    fixed.set(requestSalt, 9);
    fixed[9 + m.saltSize] = firstLen >> 8;
    fixed[10 + m.saltSize] = firstLen & 0xff;
    const rest = p.subarray(firstLen);
    const out = w.buffer(m.saltSize + fixed.length + 16 + firstLen + 16 + w.sealedSize(rest.length));
    out.set(responseSalt);
    let at = w.sealBlock(fixed, out, m.saltSize);
    at = w.sealBlock(p.subarray(0, firstLen), out, at);
    return out.subarray(0, w.sealChunks(rest, out, at));
  };
}
