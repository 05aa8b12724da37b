/**
 * mux.cool frames as XUDP uses them (Xray's XUDP and mux.cool documents): a 2-byte metadata
 * length, metadata (session id, status, option, then for UDP frames the network byte and a
 * port-first address, and after a New frame's address an optional 8-byte global id), then, when
 * option bit 1 is set, a 2-byte data length and the data. Pure codec, no I/O.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { v2rayAddress } from "./address.ts";

export const STATUS_NEW = 1;
export const STATUS_KEEP = 2;
export const STATUS_END = 3;
export const STATUS_KEEP_ALIVE = 4;
export const OPTION_DATA = 1;
export const OPTION_ERROR = 2;
export const NETWORK_TCP = 1;
export const NETWORK_UDP = 2;

export interface Frame {
  sessionId: number;
  status: number;
  option: number;
  network?: number;
  addr?: Address;
  globalId?: Uint8Array;
  /** Present when option has OPTION_DATA; a view into the decoded buffer. */
  data?: Uint8Array;
  /** Bytes the whole frame took. */
  length: number;
}

/** Decodes one frame at the start of `b`; undefined when more bytes are needed. */
export function decodeFrame(b: Uint8Array): Frame | undefined {
  if (b.length < 2) return undefined;
  const metaLen = (b[0] << 8) | b[1];
  if (metaLen < 4) throw new ProtocolError(`mux.cool metadata of ${metaLen} bytes is too short`);
  const metaEnd = 2 + metaLen;
  if (b.length < metaEnd) return undefined;
  const meta = b.subarray(0, metaEnd);
  const f: Frame = { sessionId: (b[2] << 8) | b[3], status: b[4], option: b[5], length: metaEnd };
  if (f.status < STATUS_NEW || f.status > STATUS_KEEP_ALIVE) {
    throw new ProtocolError(`Unknown mux.cool frame status ${f.status}`);
  }
  if ((f.status === STATUS_NEW || f.status === STATUS_KEEP) && metaLen > 4) {
    f.network = meta[6];
    const got = v2rayAddress.decode(meta, 7);
    if (!got) throw new ProtocolError("Truncated address in mux.cool frame");
    f.addr = got.addr;
    if (f.status === STATUS_NEW && metaEnd - got.next >= 8) f.globalId = meta.slice(got.next, got.next + 8);
  }
  if (f.option & OPTION_DATA) {
    if (b.length < metaEnd + 2) return undefined;
    const n = (b[metaEnd] << 8) | b[metaEnd + 1];
    if (b.length < metaEnd + 2 + n) return undefined;
    f.data = b.subarray(metaEnd + 2, metaEnd + 2 + n);
    f.length = metaEnd + 2 + n;
  }
  return f;
}

/** Largest frame header: metadata length, 4 fixed bytes, network, address (port-first), global id, data length. */
export const MAX_FRAME_HEADER = 2 + 4 + 1 + 2 + 1 + 1 + 255 + 8 + 2;

/**
 * Writes a UDP frame header for `dataLength` bytes of data into `out`; returns its length. A New
 * frame may carry a global id; a Keep frame carries the address when `addr` is given.
 */
export function encodeUdpFrameHeader(
  out: Uint8Array,
  status: number,
  addr: Address | undefined,
  dataLength: number,
  globalId?: Uint8Array,
): number {
  let p = 2;
  out[p++] = 0;
  out[p++] = 0;
  out[p++] = status;
  out[p++] = OPTION_DATA;
  if (addr) {
    out[p++] = NETWORK_UDP;
    p = v2rayAddress.encode(addr, out, p);
    if (status === STATUS_NEW && globalId) {
      out.set(globalId, p);
      p += globalId.length;
    }
  }
  const metaLen = p - 2;
  out[0] = metaLen >> 8;
  out[1] = metaLen & 255;
  out[p++] = dataLength >> 8;
  out[p++] = dataLength & 255;
  return p;
}
