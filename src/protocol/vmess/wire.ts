/**
 * The VMess request instruction (the plaintext inside the sealed header): version 1, body IV and
 * key, response byte, options, padding length and security, command, port-first address, random
 * padding, FNV-1a checksum. Pure codec.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { v2rayAddress } from "../../transport/xudp/mod.ts";
import { fnv1a32 } from "./kdf.ts";

export const OPT_CHUNK_STREAM = 0x01;
export const OPT_CHUNK_MASKING = 0x04;
export const OPT_GLOBAL_PADDING = 0x08;
export const OPT_AUTHENTICATED_LENGTH = 0x10;

export const SEC_LEGACY = 1;
export const SEC_AES_128_GCM = 3;
export const SEC_CHACHA20_POLY1305 = 4;
export const SEC_NONE = 5;

export const CMD_TCP = 1;
export const CMD_UDP = 2;
export const CMD_MUX = 3;

export interface Instruction {
  bodyIv: Uint8Array;
  bodyKey: Uint8Array;
  respV: number;
  options: number;
  security: number;
  command: number;
  /** Absent for the mux command. */
  destination?: Address;
}

/** Encodes an instruction; `random` supplies the padding (its first byte picks the length 0..15). */
export function encodeInstruction(i: Instruction, random: Uint8Array): Uint8Array {
  const padLen = random[0] & 15;
  const addrLen = i.command === CMD_MUX ? 0 : v2rayAddress.length(i.destination!);
  const out = new Uint8Array(38 + addrLen + padLen + 4);
  out[0] = 1;
  out.set(i.bodyIv, 1);
  out.set(i.bodyKey, 17);
  out[33] = i.respV;
  out[34] = i.options;
  out[35] = (padLen << 4) | i.security;
  out[36] = 0;
  out[37] = i.command;
  let p = 38;
  if (i.command !== CMD_MUX) p = v2rayAddress.encode(i.destination!, out, p);
  out.set(random.subarray(1, 1 + padLen), p);
  p += padLen;
  new DataView(out.buffer).setUint32(p, fnv1a32(out.subarray(0, p)));
  return out;
}

export function decodeInstruction(b: Uint8Array): Instruction {
  if (b.length < 42) throw new ProtocolError(`VMess header of ${b.length} bytes is too short`);
  if (b[0] !== 1) throw new ProtocolError(`Unknown VMess version ${b[0]}`);
  const command = b[37];
  let p = 38;
  let destination: Address | undefined;
  if (command === CMD_TCP || command === CMD_UDP) {
    const got = v2rayAddress.decode(b, p);
    if (!got) throw new ProtocolError("Truncated address in VMess header");
    destination = got.addr;
    p = got.next;
  } else if (command !== CMD_MUX) {
    throw new ProtocolError(`Unknown VMess command ${command}`);
  }
  p += b[35] >> 4;
  if (p + 4 !== b.length) throw new ProtocolError("VMess header length does not match its contents");
  if (new DataView(b.buffer, b.byteOffset).getUint32(p) !== fnv1a32(b.subarray(0, p))) {
    throw new ProtocolError("VMess header checksum mismatch");
  }
  return {
    bodyIv: b.slice(1, 17),
    bodyKey: b.slice(17, 33),
    respV: b[33],
    options: b[34],
    security: b[35] & 15,
    command,
    destination,
  };
}
