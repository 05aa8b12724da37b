/**
 * QUIC (RFC 9000, RFC 9001, RFC 9369): the client's Initial packets are decrypted with keys derived from
 * their Destination Connection ID, their CRYPTO frames are joined by offset across packets and
 * datagrams, and the ClientHello's server_name is the domain. Versions 1, 2 and draft-29.
 *
 * The client is guessed as sing-box does, from the frames of the packet that completed the ClientHello:
 * a ClientHello spread over several packets is Chromium; otherwise one lone CRYPTO frame is Firefox,
 * CRYPTO then PADDING with Safari's TLS fingerprint is Safari, PADDING then CRYPTO is quic-go, several
 * CRYPTO frames or a PING is Chromium when the TLS fingerprint is Chrome 115's and quic-go (uQUIC)
 * otherwise, and anything else is "unknown".
 */
import { normalizeDomain } from "./domain.ts";
import { ByteReader, concatBytes } from "./reader.ts";
import { clientInitialKeys, headerMask, isSupportedVersion, openPayload, QUIC_V2 } from "./quic_crypto.ts";
import { type ClientHello, HANDSHAKE_CLIENT_HELLO, parseClientHelloBody } from "./tls_client_hello.ts";
import { found, MAX_CLIENT_HELLO, MAX_PACKETS, NEED_MORE, NONE, type SniffOutcome } from "./types.ts";

const FRAME_PADDING = 0x00;
const FRAME_PING = 0x01;
const FRAME_ACK = 0x02;
const FRAME_ACK_ECN = 0x03;
const FRAME_CRYPTO = 0x06;
const FRAME_CONNECTION_CLOSE = 0x1c;
/** Most long-header packets read from one datagram (coalesced packets). */
const MAX_COALESCED = 8;
const MAX_FRAGMENTS = 512;

type CryptoFragment = { offset: number; data: Uint8Array };
type InitialPayload = { frames: number[]; crypto: CryptoFragment[] };

export function sniffQuic(packets: readonly Uint8Array[]): SniffOutcome {
  if (packets.length === 0) return NEED_MORE;
  const fragments: CryptoFragment[] = [];
  let decrypted = 0;
  let contributing = 0;
  for (const datagram of packets.slice(0, MAX_PACKETS)) {
    for (const payload of initialPayloads(datagram)) {
      decrypted++;
      if (payload.crypto.length === 0) continue;
      contributing++;
      for (const f of payload.crypto) if (fragments.length < MAX_FRAGMENTS) fragments.push(f);
      const message = assemble(fragments);
      if (message === "invalid") return found("quic");
      if (message === undefined) continue;
      const hello = parseClientHelloBody(message.subarray(4));
      if (!hello) return found("quic");
      const domain = hello.serverName === undefined ? undefined : normalizeDomain(hello.serverName);
      return found("quic", domain, contributing > 1 ? "chromium" : guessClient(payload.frames, hello));
    }
  }
  if (decrypted === 0) return NONE;
  return packets.length >= MAX_PACKETS ? found("quic") : NEED_MORE;
}

/** Decrypted payloads of the client Initial packets in one datagram. */
function initialPayloads(d: Uint8Array): InitialPayload[] {
  const out: InitialPayload[] = [];
  let pos = 0;
  for (let n = 0; n < MAX_COALESCED && pos < d.length; n++) {
    const r = new ByteReader(d, pos);
    const first = r.u8()!;
    if ((first & 0x80) === 0) break; // short header: the rest of the datagram
    const version = r.u32();
    if (version === undefined || !isSupportedVersion(version)) break;
    const dcidLen = r.u8();
    if (dcidLen === undefined || dcidLen > 20) break;
    const dcid = r.bytes(dcidLen);
    const scidLen = r.u8();
    if (!dcid || scidLen === undefined || scidLen > 20 || !r.skip(scidLen)) break;
    const type = (first >> 4) & 0x03;
    const initial = version === QUIC_V2 ? type === 1 : type === 0;
    const retry = version === QUIC_V2 ? type === 0 : type === 3;
    if (retry) break;
    if (initial) {
      const tokenLen = r.varint();
      if (tokenLen === undefined || !r.skip(tokenLen)) break;
    }
    const length = r.varint();
    if (length === undefined || length > r.remaining) break;
    const pnOffset = r.offset;
    if (initial && dcidLen > 0) {
      const payload = openInitial(d.subarray(pos, pnOffset + length), pnOffset - pos, version, dcid);
      if (payload) out.push(payload);
    }
    pos = pnOffset + length;
  }
  return out;
}

/** Removes header protection and decrypts one Initial packet; undefined when it does not verify. */
function openInitial(
  pkt: Uint8Array,
  pnOffset: number,
  version: number,
  dcid: Uint8Array,
): InitialPayload | undefined {
  if (pkt.length < pnOffset + 4 + 16) return undefined;
  const keys = clientInitialKeys(version, dcid);
  if (!keys) return undefined;
  const mask = headerMask(keys.hp, pkt.subarray(pnOffset + 4, pnOffset + 20));
  const first = pkt[0] ^ (mask[0] & 0x0f);
  const pnLen = (first & 0x03) + 1;
  const header = pkt.slice(0, pnOffset + pnLen);
  header[0] = first;
  let pn = 0;
  for (let i = 0; i < pnLen; i++) {
    header[pnOffset + i] ^= mask[1 + i];
    pn = pn * 256 + header[pnOffset + i];
  }
  const plain = openPayload(keys, pn, header, pkt.subarray(pnOffset + pnLen));
  return plain && readFrames(plain);
}

/** The frame types (a run of PADDING counted once) and CRYPTO data; undefined on a frame not allowed. */
function readFrames(plain: Uint8Array): InitialPayload | undefined {
  const r = new ByteReader(plain);
  const frames: number[] = [];
  const crypto: CryptoFragment[] = [];
  while (r.remaining > 0) {
    const type = r.varint()!;
    if (type !== FRAME_PADDING || frames[frames.length - 1] !== FRAME_PADDING) frames.push(type);
    switch (type) {
      case FRAME_PADDING:
      case FRAME_PING:
        break;
      case FRAME_ACK:
      case FRAME_ACK_ECN: {
        r.varint(); // largest acknowledged
        r.varint(); // ACK delay
        const ranges = r.varint();
        if (r.varint() === undefined || ranges === undefined || ranges > r.remaining) return undefined;
        for (let i = 0; i < ranges * 2 + (type === FRAME_ACK_ECN ? 3 : 0); i++) {
          if (r.varint() === undefined) return undefined;
        }
        break;
      }
      case FRAME_CRYPTO: {
        const offset = r.varint();
        const length = r.varint();
        if (offset === undefined || length === undefined) return undefined;
        const data = r.bytes(length);
        if (!data) return undefined;
        if (offset + length <= MAX_CLIENT_HELLO) crypto.push({ offset, data });
        break;
      }
      case FRAME_CONNECTION_CLOSE: {
        r.varint(); // error code
        r.varint(); // frame type
        const reason = r.varint();
        if (reason === undefined || !r.skip(reason)) return undefined;
        break;
      }
      default:
        return undefined;
    }
  }
  return { frames, crypto };
}

/**
 * The whole ClientHello handshake message once the fragments cover it from offset 0; undefined while
 * incomplete, "invalid" when the stream does not start with a ClientHello of a bounded size.
 */
function assemble(fragments: readonly CryptoFragment[]): Uint8Array | "invalid" | undefined {
  const sorted = [...fragments].sort((a, b) => a.offset - b.offset);
  let end = 0;
  const parts: Uint8Array[] = [];
  for (const f of sorted) {
    if (f.offset > end) break;
    const fresh = f.data.subarray(end - f.offset);
    if (fresh.length > 0) {
      parts.push(fresh);
      end += fresh.length;
    }
  }
  if (end < 4) return undefined;
  const stream = concatBytes(parts);
  if (stream[0] !== HANDSHAKE_CLIENT_HELLO) return "invalid";
  const total = 4 + ((stream[1] << 16) | (stream[2] << 8) | stream[3]);
  if (total > MAX_CLIENT_HELLO) return "invalid";
  return end >= total ? stream.subarray(0, total) : undefined;
}

function guessClient(frames: readonly number[], hello: ClientHello): string {
  const last = frames.length - 1;
  if (frames.length === 1) return "firefox";
  if (frames[0] === FRAME_CRYPTO && frames.slice(1).every((t) => t === FRAME_PADDING) && isSafari(hello)) {
    return "safari";
  }
  if (frames[last] === FRAME_CRYPTO && frames.slice(0, last).every((t) => t === FRAME_PADDING)) {
    return "quic-go";
  }
  if (frames.filter((t) => t === FRAME_CRYPTO).length > 1 || frames.includes(FRAME_PING)) {
    return isChrome115(hello) ? "chromium" : "quic-go";
  }
  return "unknown";
}

const isGrease = (v: number | undefined) => v !== undefined && (v & 0x0f0f) === 0x0a0a;

function isSafari(h: ClientHello): boolean {
  if (h.versions.length === 2 && isGrease(h.versions[0]) && h.groups.length === 5 && isGrease(h.groups[0])) {
    return true;
  }
  return equal(h.cipherSuites, [0x1302]) && equal(h.groups, [29]) && equal(h.signatureAlgorithms, [0x0403]);
}

/** The Chrome 115 QUIC fingerprint sing-box keeps (extensions compared sorted). */
const CHROME_115 = {
  cipherSuites: [4865, 4866, 4867],
  extensions: [0, 10, 13, 16, 27, 43, 45, 51, 57, 17513],
  groups: [29, 23, 24],
  signatureAlgorithms: [1027, 2052, 1025, 1283, 2053, 1281, 2054, 1537, 513],
};

function isChrome115(h: ClientHello): boolean {
  return h.version === 0x0303 && equal(h.cipherSuites, CHROME_115.cipherSuites) &&
    equal([...h.extensions].sort((a, b) => a - b), CHROME_115.extensions) &&
    equal(h.groups, CHROME_115.groups) && h.pointFormats.length === 0 &&
    equal(h.signatureAlgorithms, CHROME_115.signatureAlgorithms);
}

function equal(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
