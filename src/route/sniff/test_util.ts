/** Helpers for the sniffer tests: fixture loading and builders for ClientHellos and QUIC Initial packets. */
import { concatBytes } from "./reader.ts";
import { clientInitialKeys, headerMask, QUIC_V2, sealPayload } from "./quic_crypto.ts";

const FIXTURES = new URL("../../../tests/fixtures/sniff/", import.meta.url);

/** A fixture file: `.bin` as is, `.hex` decoded (whitespace ignored). */
export function fixture(name: string): Uint8Array {
  if (name.endsWith(".hex")) return fromHex(Deno.readTextFileSync(new URL(name, FIXTURES)));
  return Deno.readFileSync(new URL(name, FIXTURES));
}

/** The datagrams NAME.0.bin, NAME.1.bin, ... in order. */
export function datagrams(name: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0;; i++) {
    try {
      out.push(Deno.readFileSync(new URL(`${name}.${i}.bin`, FIXTURES)));
    } catch {
      return out;
    }
  }
}

/** Every fixture as stream inputs and packet inputs, for the fuzz test. */
export function allFixtures(): { streams: Uint8Array[]; packets: Uint8Array[][] } {
  const streams: Uint8Array[] = [];
  const groups = new Map<string, Uint8Array[]>();
  for (const entry of [...Deno.readDirSync(FIXTURES)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const m = /^(.*)\.(\d+)\.bin$/.exec(entry.name);
    if (m) groups.set(m[1], datagrams(m[1]));
    else if (entry.name.endsWith(".bin")) streams.push(fixture(entry.name));
    else if (entry.name.endsWith(".hex")) groups.set(entry.name, [fixture(entry.name)]);
  }
  return { streams, packets: [...groups.values()] };
}

export function fromHex(text: string): Uint8Array {
  const s = text.replace(/\s+/g, "");
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function ascii(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

const u16 = (v: number) => [v >> 8, v & 0xff];
const u24 = (v: number) => [v >> 16, (v >> 8) & 0xff, v & 0xff];

function vec16(items: number[]): number[] {
  return [...u16(items.length * 2), ...items.flatMap(u16)];
}

function ext(type: number, body: number[]): number[] {
  return [...u16(type), ...u16(body.length), ...body];
}

export type HelloSpec = {
  sni?: string;
  cipherSuites?: number[];
  groups?: number[];
  versions?: number[];
  signatureAlgorithms?: number[];
  alpn?: string[];
  /** Extra empty extensions, by type. */
  extra?: number[];
  dtls?: boolean;
};

/** A ClientHello handshake message (4-byte header and body) with the given fields. */
export function buildClientHello(spec: HelloSpec): Uint8Array {
  const exts: number[] = [];
  if (spec.sni !== undefined) {
    const name = [...ascii(spec.sni)];
    const entry = [0, ...u16(name.length), ...name];
    exts.push(...ext(0, [...u16(entry.length), ...entry]));
  }
  if (spec.groups) exts.push(...ext(10, vec16(spec.groups)));
  if (spec.signatureAlgorithms) exts.push(...ext(13, vec16(spec.signatureAlgorithms)));
  if (spec.versions) exts.push(...ext(43, [spec.versions.length * 2, ...spec.versions.flatMap(u16)]));
  if (spec.alpn) {
    const list = spec.alpn.flatMap((p) => [p.length, ...ascii(p)]);
    exts.push(...ext(16, [...u16(list.length), ...list]));
  }
  for (const t of spec.extra ?? []) exts.push(...ext(t, []));
  const body = [
    ...(spec.dtls ? [0xfe, 0xfd] : [0x03, 0x03]),
    ...new Array(32).fill(7),
    0, // session id
    ...(spec.dtls ? [0] : []), // cookie
    ...vec16(spec.cipherSuites ?? [0x1301]),
    1,
    0, // compression: null
    ...u16(exts.length),
    ...exts,
  ];
  return Uint8Array.from([1, ...u24(body.length), ...body]);
}

/** TLS records of type handshake carrying `message` split at the given sizes (the rest in a last record). */
export function tlsRecords(message: Uint8Array, sizes: number[] = []): Uint8Array {
  const out: number[] = [];
  let pos = 0;
  for (const size of [...sizes, message.length]) {
    const part = message.subarray(pos, Math.min(message.length, pos + size));
    if (part.length === 0) break;
    out.push(0x16, 0x03, 0x01, ...u16(part.length), ...part);
    pos += part.length;
  }
  return Uint8Array.from(out);
}

export const frame = {
  crypto: (offset: number, data: Uint8Array) => {
    const v = (n: number) => n < 64 ? [n] : [0x40 | (n >> 8), n & 0xff];
    return Uint8Array.from([0x06, ...v(offset), ...v(data.length), ...data]);
  },
  padding: (n: number) => new Uint8Array(n),
  ping: () => Uint8Array.of(0x01),
};

export type InitialSpec = {
  version?: number;
  dcid?: Uint8Array;
  packetNumber?: number;
  frames: Uint8Array[];
  /** Pad the datagram with zero bytes after the packet to this size (as Firefox does). */
  datagramSize?: number;
};

/** A protected client Initial packet (RFC 9001 section 5), for building QUIC test inputs. */
export function buildInitial(spec: InitialSpec): Uint8Array {
  const version = spec.version ?? 1;
  const dcid = spec.dcid ?? fromHex("8394c8f03e515708");
  const pn = spec.packetNumber ?? 0;
  const keys = clientInitialKeys(version, dcid)!;
  const payload = concatBytes(spec.frames);
  const length = 2 + payload.length + 16; // 2-byte packet number
  const typeBits = version === QUIC_V2 ? 0x10 : 0x00;
  const header = Uint8Array.from([
    0xc0 | typeBits | 0x01,
    ...[version >>> 24, (version >> 16) & 0xff, (version >> 8) & 0xff, version & 0xff],
    dcid.length,
    ...dcid,
    0, // scid
    0, // token length
    0x40 | (length >> 8),
    length & 0xff,
    ...u16(pn),
  ]);
  const sealed = sealPayload(keys, pn, header, payload);
  const packet = concatBytes([header, sealed]);
  const pnOffset = header.length - 2;
  const mask = headerMask(keys.hp, packet.subarray(pnOffset + 4, pnOffset + 20));
  packet[0] ^= mask[0] & 0x0f;
  packet[pnOffset] ^= mask[1];
  packet[pnOffset + 1] ^= mask[2];
  if (spec.datagramSize && spec.datagramSize > packet.length) {
    return concatBytes([packet, new Uint8Array(spec.datagramSize - packet.length)]);
  }
  return packet;
}
