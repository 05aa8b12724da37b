/**
 * The TLS ClientHello body (RFC 8446 section 4.1.2), shared by the TLS, QUIC and DTLS sniffers. DTLS
 * (RFC 6347 section 4.2.1) adds a cookie after the session id. Parsing is strict, so that bytes which only
 * resemble a ClientHello are refused: every length must fit and the extensions must end the body exactly.
 */
import { ByteReader, latin1 } from "./reader.ts";

/** The fields of a ClientHello the sniffers use, GREASE values kept (as sing-box's fingerprint keeps them). */
export type ClientHello = {
  /** legacy_version: 0x0303 for TLS 1.2 and 1.3, 0xfefd for DTLS 1.2. */
  version: number;
  cipherSuites: number[];
  /** Extension types in the order sent. */
  extensions: number[];
  /** supported_groups (10). */
  groups: number[];
  /** ec_point_formats (11). */
  pointFormats: number[];
  /** supported_versions (43). */
  versions: number[];
  /** signature_algorithms (13). */
  signatureAlgorithms: number[];
  /** ALPN protocol names (16). */
  alpn: string[];
  /** The first host_name of server_name (0), as sent; callers validate it. */
  serverName?: string;
};

export const HANDSHAKE_CLIENT_HELLO = 1;

const EXT_SERVER_NAME = 0;
const EXT_SUPPORTED_GROUPS = 10;
const EXT_POINT_FORMATS = 11;
const EXT_SIGNATURE_ALGORITHMS = 13;
const EXT_ALPN = 16;
const EXT_SUPPORTED_VERSIONS = 43;
const MAX_SERVER_NAME = 255;

/** Parses a complete ClientHello body (the handshake message without its header); undefined when malformed. */
export function parseClientHelloBody(body: Uint8Array, dtls = false): ClientHello | undefined {
  const r = new ByteReader(body);
  const version = r.u16();
  if (version === undefined) return undefined;
  if (dtls ? (version !== 0xfeff && version !== 0xfefd) : (version >> 8) !== 3) return undefined;
  if (!r.skip(32)) return undefined; // random
  const sessionIdLen = r.u8();
  if (sessionIdLen === undefined || sessionIdLen > 32 || !r.skip(sessionIdLen)) return undefined;
  if (dtls) {
    const cookieLen = r.u8();
    if (cookieLen === undefined || !r.skip(cookieLen)) return undefined;
  }
  const suitesLen = r.u16();
  if (suitesLen === undefined || suitesLen < 2 || suitesLen % 2 !== 0) return undefined;
  const suites = r.bytes(suitesLen);
  if (!suites) return undefined;
  const compressionLen = r.u8();
  if (compressionLen === undefined || compressionLen < 1 || !r.skip(compressionLen)) return undefined;
  const hello: ClientHello = {
    version,
    cipherSuites: u16List(suites),
    extensions: [],
    groups: [],
    pointFormats: [],
    versions: [],
    signatureAlgorithms: [],
    alpn: [],
  };
  if (r.remaining === 0) return hello; // no extensions at all (TLS 1.0-era clients)
  const extLen = r.u16();
  if (extLen === undefined || extLen !== r.remaining) return undefined;
  while (r.remaining > 0) {
    const type = r.u16();
    const len = r.u16();
    if (type === undefined || len === undefined) return undefined;
    const data = r.bytes(len);
    if (!data) return undefined;
    hello.extensions.push(type);
    if (!readExtension(hello, type, data)) return undefined;
  }
  return hello;
}

function readExtension(hello: ClientHello, type: number, data: Uint8Array): boolean {
  const r = new ByteReader(data);
  switch (type) {
    case EXT_SERVER_NAME: {
      if (data.length === 0) return true; // allowed in a ServerHello; tolerated here
      const listLen = r.u16();
      if (listLen === undefined || listLen !== r.remaining) return false;
      while (r.remaining > 0) {
        const nameType = r.u8();
        const nameLen = r.u16();
        if (nameType === undefined || nameLen === undefined) return false;
        const name = r.bytes(nameLen);
        if (!name) return false;
        if (nameType === 0 && hello.serverName === undefined) {
          if (nameLen === 0 || nameLen > MAX_SERVER_NAME) return false;
          hello.serverName = latin1(name);
        }
      }
      return true;
    }
    case EXT_SUPPORTED_GROUPS:
    case EXT_SIGNATURE_ALGORITHMS: {
      const len = r.u16();
      if (len === undefined || len % 2 !== 0 || len !== r.remaining) return false;
      const list = u16List(r.bytes(len)!);
      if (type === EXT_SUPPORTED_GROUPS) hello.groups = list;
      else hello.signatureAlgorithms = list;
      return true;
    }
    case EXT_POINT_FORMATS: {
      const len = r.u8();
      if (len === undefined || len !== r.remaining) return false;
      hello.pointFormats = Array.from(r.bytes(len)!);
      return true;
    }
    case EXT_SUPPORTED_VERSIONS: {
      const len = r.u8();
      if (len === undefined || len % 2 !== 0 || len !== r.remaining) return false;
      hello.versions = u16List(r.bytes(len)!);
      return true;
    }
    case EXT_ALPN: {
      const len = r.u16();
      if (len === undefined || len !== r.remaining) return false;
      while (r.remaining > 0) {
        const n = r.u8();
        const name = n === undefined || n === 0 ? undefined : r.bytes(n);
        if (!name) return false;
        hello.alpn.push(latin1(name));
      }
      return true;
    }
    default:
      return true;
  }
}

function u16List(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) out.push((bytes[i] << 8) | bytes[i + 1]);
  return out;
}
