/**
 * VLESS request and response headers (Xray's VLESS document). Request: version 0, UUID, addons
 * (protobuf; field 1 is `flow`), command (1 TCP, 2 UDP, 3 mux), then for TCP/UDP a port-first
 * address. Response: version 0, addons. Pure codec.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { v2rayAddress } from "../../transport/xudp/mod.ts";

export const CMD_TCP = 1;
export const CMD_UDP = 2;
export const CMD_MUX = 3;

export interface VlessRequest {
  uuid: Uint8Array;
  flow: string;
  command: number;
  destination?: Address;
  /** Bytes the header took. */
  length: number;
}

export function encodeRequest(uuid: Uint8Array, command: number, destination?: Address): Uint8Array {
  const addrLen = command === CMD_MUX ? 0 : v2rayAddress.length(destination!);
  const out = new Uint8Array(19 + addrLen);
  out[0] = 0;
  out.set(uuid, 1);
  out[17] = 0; // no addons: no flow
  out[18] = command;
  if (command !== CMD_MUX) v2rayAddress.encode(destination!, out, 19);
  return out;
}

const decoder = new TextDecoder();

/** Reads the `flow` string (field 1) from the addons protobuf; other fields are skipped. */
function decodeFlow(b: Uint8Array): string {
  let p = 0;
  let flow = "";
  while (p < b.length) {
    const key = b[p++];
    const wire = key & 7;
    if (wire !== 2) throw new ProtocolError(`Unsupported VLESS addons field type ${wire}`);
    let len = 0;
    for (let shift = 0;; shift += 7) {
      if (p >= b.length || shift > 21) throw new ProtocolError("Truncated VLESS addons");
      const c = b[p++];
      len |= (c & 127) << shift;
      if (!(c & 128)) break;
    }
    if (p + len > b.length) throw new ProtocolError("Truncated VLESS addons");
    if (key >> 3 === 1) flow = decoder.decode(b.subarray(p, p + len));
    p += len;
  }
  return flow;
}

/** Decodes a request at the start of `b`; undefined when more bytes are needed. */
export function decodeRequest(b: Uint8Array): VlessRequest | undefined {
  if (b.length < 1) return undefined;
  if (b[0] !== 0) throw new ProtocolError(`Unknown VLESS version ${b[0]}`);
  if (b.length < 18) return undefined;
  const addonsLen = b[17];
  if (b.length < 19 + addonsLen) return undefined;
  const flow = decodeFlow(b.subarray(18, 18 + addonsLen));
  const command = b[18 + addonsLen];
  let p = 19 + addonsLen;
  let destination: Address | undefined;
  if (command === CMD_TCP || command === CMD_UDP) {
    const got = v2rayAddress.decode(b, p);
    if (!got) return undefined;
    destination = got.addr;
    p = got.next;
  } else if (command !== CMD_MUX) {
    throw new ProtocolError(`Unknown VLESS command ${command}`);
  }
  return { uuid: b.slice(1, 17), flow, command, destination, length: p };
}

export const RESPONSE = new Uint8Array([0, 0]);

/** Length of the response header at the start of `b`; undefined when more bytes are needed. */
export function responseLength(b: Uint8Array): number | undefined {
  if (b.length < 2) return undefined;
  if (b[0] !== 0) throw new ProtocolError(`Unknown VLESS response version ${b[0]}`);
  return b.length < 2 + b[1] ? undefined : 2 + b[1];
}
