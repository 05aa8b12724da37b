/**
 * Shadowsocks UDP packets, one codec per method family:
 * - none: address | payload;
 * - SIP004: salt | AEAD(HKDF subkey, zero nonce, address | payload);
 * - SIP022 AES: AES-ECB(separate header: session id, packet id) | [identity header] |
 *   AEAD(session subkey, nonce = header[4..16], main header | address | payload);
 * - SIP022 ChaCha: 24-byte nonce | XChaCha20-Poly1305(PSK, separate + main header | address | payload).
 * Every failure throws a ProtocolError (callers drop the packet).
 */
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import type { Address } from "../../adapter/mod.ts";
import { type Aead, createAead } from "../../crypto/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { aeadSubkey, aesDecryptBlock, aesEncryptBlock, pskHash, sessionSubkey } from "./kdf.ts";
import type { Method } from "./method.ts";
import { addressLength, checkTimestamp, decodeAddress, encodeAddressInto, putTimestamp } from "./wire.ts";

const TAG = 16;
const ZERO_NONCE = new Uint8Array(12);

export interface Decoded {
  addr: Address;
  payload: Uint8Array;
}

function concatAddress(addr: Address, payload: Uint8Array, head = 0): { buf: Uint8Array; at: number } {
  const buf = new Uint8Array(head + addressLength(addr) + payload.length);
  const at = encodeAddressInto(addr, buf, head);
  buf.set(payload, at);
  return { buf, at: head };
}

/** SIP004 or none: one packet, sealed with a fresh salt. */
export function sealLegacy(m: Method, key: Uint8Array, addr: Address, payload: Uint8Array): Uint8Array {
  const { buf } = concatAddress(addr, payload);
  if (m.kind === "none") return buf;
  const salt = crypto.getRandomValues(new Uint8Array(m.saltSize));
  const out = new Uint8Array(m.saltSize + buf.length + TAG);
  out.set(salt);
  const a = createAead(m.aead, aeadSubkey(key, salt));
  try {
    a.seal(ZERO_NONCE, buf, out.subarray(m.saltSize));
  } finally {
    a.dispose();
  }
  return out;
}

/** SIP004 or none: opens a packet with the first key that fits; returns its index too. */
export function openLegacy(
  m: Method,
  keys: readonly Uint8Array[],
  packet: Uint8Array,
): Decoded & { index: number } {
  if (m.kind === "none") return { ...split(packet), index: 0 };
  if (packet.length < m.saltSize + TAG) throw new ProtocolError("Packet too short");
  const salt = packet.subarray(0, m.saltSize);
  const body = packet.subarray(m.saltSize);
  const out = new Uint8Array(body.length - TAG);
  for (let i = 0; i < keys.length; i++) {
    const a = createAead(m.aead, aeadSubkey(keys[i], salt));
    const n = a.open(ZERO_NONCE, body, out);
    a.dispose();
    if (n >= 0) return { ...split(out), index: i };
  }
  throw new ProtocolError("Packet authentication failed");
}

function split(b: Uint8Array): Decoded {
  const { addr, next } = decodeAddress(b);
  return { addr, payload: b.subarray(next) };
}

/** The parts of a SIP022 packet before the address. */
export interface Header2022 {
  sessionId: Uint8Array;
  packetId: bigint;
  type: number;
  timestamp: number;
  /** Server packets: the client session they answer. */
  clientSessionId?: Uint8Array;
}

/** Builds a SIP022 packet. `keys` is the chain (iPSK…, uPSK) for a client, [uPSK] for a server. */
export function seal2022(
  m: Method,
  keys: readonly Uint8Array[],
  h: Header2022,
  addr: Address,
  payload: Uint8Array,
  aead?: Aead,
): Uint8Array {
  const server = h.clientSessionId !== undefined;
  const pad = 0;
  const main = 1 + 8 + (server ? 8 : 0) + 2 + pad;
  const chacha = m.aead === "chacha20-poly1305";
  const sep = 16;
  const { buf: plain } = concatAddress(addr, payload, (chacha ? sep : 0) + main);
  const dv = new DataView(plain.buffer);
  let at = chacha ? sep : 0;
  if (chacha) {
    plain.set(h.sessionId, 0);
    dv.setBigUint64(8, h.packetId);
  }
  plain[at] = h.type;
  putTimestamp(plain, at + 1, h.timestamp);
  at += 9;
  if (server) {
    plain.set(h.clientSessionId!, at);
    at += 8;
  }
  dv.setUint16(at, pad);
  if (chacha) {
    const nonce = crypto.getRandomValues(new Uint8Array(24));
    const sealed = xchacha20poly1305(keys[keys.length - 1], nonce).encrypt(plain);
    const out = new Uint8Array(24 + sealed.length);
    out.set(nonce);
    out.set(sealed, 24);
    return out;
  }
  const header = new Uint8Array(16);
  header.set(h.sessionId);
  new DataView(header.buffer).setBigUint64(8, h.packetId);
  const eihCount = keys.length - 1;
  const out = new Uint8Array(16 + 16 * eihCount + plain.length + TAG);
  out.set(aesEncryptBlock(keys[0], header));
  for (let i = 0; i < eihCount; i++) {
    const x = pskHash(keys[i + 1]);
    for (let k = 0; k < 16; k++) x[k] ^= header[k];
    out.set(aesEncryptBlock(keys[i], x), 16 + 16 * i);
  }
  const uKey = keys[keys.length - 1];
  const a = aead ?? createAead(m.aead, sessionSubkey(uKey, h.sessionId));
  a.seal(header.subarray(4), plain, out.subarray(16 + 16 * eihCount));
  if (!aead) a.dispose();
  return out;
}

export interface Opened2022 extends Decoded {
  header: Header2022;
  /** The user's PSK that opened it (multi-user servers). */
  userKey: Uint8Array;
}

/**
 * Opens a SIP022 packet. `firstKey` decrypts the separate header (the server PSK, or a client's
 * last key); `identify` maps an identity header's hash to a user PSK (multi-user servers).
 * `sessionAead` returns a cached AEAD for a session id when the caller keeps one.
 */
export function open2022(
  m: Method,
  firstKey: Uint8Array,
  packet: Uint8Array,
  expectServer: boolean,
  nowS: number,
  identify?: (hash: Uint8Array) => Uint8Array | undefined,
  sessionAead?: (sessionId: Uint8Array, userKey: Uint8Array) => Aead | undefined,
): Opened2022 {
  let plain: Uint8Array;
  let userKey = firstKey;
  let sessionId: Uint8Array;
  let packetId: bigint;
  let at = 0;
  if (m.aead === "chacha20-poly1305") {
    if (packet.length < 24 + 16 + TAG) throw new ProtocolError("Packet too short");
    try {
      plain = xchacha20poly1305(firstKey, packet.subarray(0, 24)).decrypt(packet.subarray(24));
    } catch {
      throw new ProtocolError("Packet authentication failed");
    }
    sessionId = plain.slice(0, 8);
    packetId = new DataView(plain.buffer, plain.byteOffset).getBigUint64(8);
    at = 16;
  } else {
    const eih = identify ? 16 : 0;
    if (packet.length < 16 + eih + TAG) throw new ProtocolError("Packet too short");
    const header = aesDecryptBlock(firstKey, packet.subarray(0, 16));
    if (identify) {
      const x = aesDecryptBlock(firstKey, packet.subarray(16, 32));
      for (let k = 0; k < 16; k++) x[k] ^= header[k];
      const u = identify(x);
      if (!u) throw new ProtocolError("Unknown identity header");
      userKey = u;
    }
    sessionId = header.slice(0, 8);
    packetId = new DataView(header.buffer).getBigUint64(8);
    const body = packet.subarray(16 + eih);
    plain = new Uint8Array(body.length - TAG);
    const cached = sessionAead?.(sessionId, userKey);
    const a = cached ?? createAead(m.aead, sessionSubkey(userKey, sessionId));
    const n = a.open(header.subarray(4), body, plain);
    if (!cached) a.dispose();
    if (n < 0) throw new ProtocolError("Packet authentication failed");
  }
  const need = (n: number) => {
    if (plain.length < at + n) throw new ProtocolError("Truncated packet header");
  };
  need(9);
  const type = plain[at];
  if (type !== (expectServer ? 1 : 0)) throw new ProtocolError(`Bad packet header type ${type}`);
  const timestamp = Number(new DataView(plain.buffer, plain.byteOffset).getBigUint64(at + 1));
  checkTimestamp(timestamp, nowS);
  at += 9;
  let clientSessionId: Uint8Array | undefined;
  if (expectServer) {
    need(8);
    clientSessionId = plain.slice(at, at + 8);
    at += 8;
  }
  need(2);
  const pad = (plain[at] << 8) | plain[at + 1];
  at += 2;
  need(pad);
  at += pad;
  const { addr, next } = decodeAddress(plain, at);
  return {
    addr,
    payload: plain.subarray(next),
    userKey,
    header: { sessionId, packetId, type, timestamp, clientSessionId },
  };
}
