/**
 * Client side of VMess AEAD: builds the sealed request header and the VmessConn that sends it with
 * the first bytes and checks the server's response header before the first chunk.
 */
import type { Address, Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { ChunkOpener, ChunkSealer } from "./body.ts";
import { VmessConn } from "./conn.ts";
import { openResponseHeader, openResponseLength, sealRequestHeader } from "./header.ts";
import { sha256 } from "./kdf.ts";
import {
  CMD_MUX,
  CMD_UDP,
  encodeInstruction,
  OPT_AUTHENTICATED_LENGTH,
  OPT_CHUNK_MASKING,
  OPT_CHUNK_STREAM,
  OPT_GLOBAL_PADDING,
  SEC_AES_128_GCM,
  SEC_CHACHA20_POLY1305,
  SEC_NONE,
} from "./wire.ts";

export type VmessSecurity = "auto" | "none" | "zero" | "aes-128-gcm" | "chacha20-poly1305" | "aes-128-ctr";

export interface VmessClientParams {
  cmdKey: Uint8Array;
  security: VmessSecurity;
  globalPadding: boolean;
  authenticatedLength: boolean;
}

/**
 * `auto` picks AES-128-GCM where the CPU has AES instructions, as v2ray and sing-box do: we take
 * x86-64 and arm64 (every such CPU Deno runs on has them) and ChaCha20-Poly1305 elsewhere.
 */
export function resolveSecurity(s: VmessSecurity): number | "zero" {
  switch (s) {
    case "auto":
      return Deno.build.arch === "x86_64" || Deno.build.arch === "aarch64"
        ? SEC_AES_128_GCM
        : SEC_CHACHA20_POLY1305;
    case "aes-128-gcm":
      return SEC_AES_128_GCM;
    case "chacha20-poly1305":
      return SEC_CHACHA20_POLY1305;
    case "none":
      return SEC_NONE;
    case "zero":
      return "zero";
    default:
      throw new ProtocolError(`VMess security "${s}" is not supported`);
  }
}

/** Wraps `raw` (already dialed, TLS and transport applied) in a VMess request for `destination`. */
export function vmessClientConn(
  raw: Conn,
  p: VmessClientParams,
  command: number,
  destination: Address,
): VmessConn {
  const sec = resolveSecurity(p.security);
  const random = crypto.getRandomValues(new Uint8Array(33 + 16 + 12));
  const bodyKey = random.slice(0, 16);
  const bodyIv = random.slice(16, 32);
  const respV = random[32];
  let options = 0;
  let security = SEC_NONE;
  if (sec !== "zero") {
    security = sec;
    options = OPT_CHUNK_STREAM | OPT_CHUNK_MASKING;
    if (p.globalPadding) options |= OPT_GLOBAL_PADDING;
    if (p.authenticatedLength && sec !== SEC_NONE) options |= OPT_AUTHENTICATED_LENGTH;
  }
  const header = encodeInstruction(
    {
      bodyIv,
      bodyKey,
      respV,
      options,
      security,
      command,
      destination: command === CMD_MUX ? undefined : destination,
    },
    random.subarray(33, 49),
  );
  const sealed = sealRequestHeader(p.cmdKey, header, Date.now() / 1000, random.subarray(49, 61));
  const respKey = sha256(bodyKey).subarray(0, 16);
  const respIv = sha256(bodyIv).subarray(0, 16);
  const body = { security, options, packet: command === CMD_UDP };
  const chunked = (options & OPT_CHUNK_STREAM) !== 0;
  let length = -1;
  return new VmessConn(raw, {
    prefix: sealed,
    sealer: chunked ? new ChunkSealer({ ...body, key: bodyKey, iv: bodyIv }) : undefined,
    opener: chunked ? new ChunkOpener({ ...body, key: respKey, iv: respIv }) : undefined,
    readHeader(b) {
      if (length < 0) {
        if (b.length < 18) return undefined;
        length = openResponseLength(respKey, respIv, b.subarray(0, 18));
      }
      if (b.length < 18 + length + 16) return undefined;
      const h = openResponseHeader(respKey, respIv, b.subarray(18, 18 + length + 16));
      if (h[0] !== respV) throw new ProtocolError("VMess response header does not match the request");
      return 18 + length + 16;
    },
  });
}
