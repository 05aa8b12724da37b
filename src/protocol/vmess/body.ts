/**
 * VMess body chunks, one direction. A chunk is size | payload (sealed by the body AEAD, or plain
 * for `none`) | padding. The size is plain, masked with SHAKE128(IV) (chunk masking), or sealed
 * with its own AEAD (authenticated length). Global padding takes 0..63 bytes a chunk from the
 * same SHAKE128 stream, read before the mask. An empty payload ends the stream.
 * Buffers are the caller's and reused: nothing is allocated per chunk.
 */
import { shake128 } from "@noble/hashes/sha3.js";
import { type Aead, createAead } from "../../crypto/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import { chachaKey, kdf16 } from "./kdf.ts";
import {
  OPT_AUTHENTICATED_LENGTH,
  OPT_CHUNK_MASKING,
  OPT_GLOBAL_PADDING,
  SEC_AES_128_GCM,
  SEC_CHACHA20_POLY1305,
  SEC_NONE,
} from "./wire.ts";

/** Largest payload we put in one chunk: as much as a 16-bit size allows (v2ray reads any), fewer AEAD calls. */
export const MAX_CHUNK_PAYLOAD = 0xff00 - 16 - 64;
/** Upper bound of one chunk on the wire: sealed size, payload, tag, padding. */
export const MAX_CHUNK_WIRE = 18 + 0xffff + 16;

export interface BodyParams {
  security: number;
  options: number;
  key: Uint8Array;
  iv: Uint8Array;
  /** UDP requests: every chunk is one datagram; `none` then pads like the AEADs. */
  packet: boolean;
}

/** SHAKE128(iv) read two bytes at a time, refilled in blocks. */
class ShakeStream {
  private readonly xof;
  private readonly buf = new Uint8Array(168);
  private pos = 168;
  constructor(iv: Uint8Array) {
    this.xof = shake128.create().update(iv);
  }
  next(): number {
    if (this.pos === this.buf.length) {
      this.xof.xofInto(this.buf);
      this.pos = 0;
    }
    const v = (this.buf[this.pos] << 8) | this.buf[this.pos + 1];
    this.pos += 2;
    return v;
  }
}

function aeadFor(security: number, key: Uint8Array): Aead | undefined {
  if (security === SEC_AES_128_GCM) return createAead("aes-128-gcm", key);
  if (security === SEC_CHACHA20_POLY1305) return createAead("chacha20-poly1305", chachaKey(key));
  if (security === SEC_NONE) return undefined;
  throw new ProtocolError(`VMess security ${security} is not supported`);
}

/** Nonce: 2-byte big-endian counter, then IV bytes 2..12. */
class Nonce {
  readonly bytes: Uint8Array;
  private count = 0;
  constructor(iv: Uint8Array) {
    this.bytes = iv.slice(0, 12);
  }
  next(): Uint8Array {
    this.bytes[0] = this.count >> 8;
    this.bytes[1] = this.count & 255;
    this.count = (this.count + 1) & 0xffff;
    return this.bytes;
  }
}

abstract class ChunkCodec {
  protected readonly aead?: Aead;
  protected readonly nonce: Nonce;
  protected readonly lengthAead?: Aead;
  protected readonly lengthNonce?: Nonce;
  protected readonly shake?: ShakeStream;
  protected readonly masked: boolean;
  protected readonly padded: boolean;
  readonly tag: number;
  readonly sizeBytes: number;
  protected readonly sizeScratch = new Uint8Array(2);

  constructor(p: BodyParams) {
    this.aead = aeadFor(p.security, p.key);
    this.tag = this.aead ? 16 : 0;
    this.nonce = new Nonce(p.iv);
    if (p.options & OPT_AUTHENTICATED_LENGTH) {
      if (!this.aead) throw new ProtocolError("VMess authenticated length needs an AEAD security");
      this.lengthAead = aeadFor(p.security, kdf16(p.key, "auth_len"));
      this.lengthNonce = new Nonce(p.iv);
    }
    if (p.options & OPT_CHUNK_MASKING) this.shake = new ShakeStream(p.iv);
    this.masked = !!this.shake && !this.lengthAead;
    // `none` on a stream uses the plain chunk stream, which never pads.
    this.padded = !!this.shake && (p.options & OPT_GLOBAL_PADDING) !== 0 && (!!this.aead || p.packet);
    this.sizeBytes = this.lengthAead ? 18 : 2;
  }

  dispose(): void {
    this.aead?.dispose();
    this.lengthAead?.dispose();
  }
}

export class ChunkSealer extends ChunkCodec {
  /** Writes one chunk carrying `payload` (at most MAX_CHUNK_PAYLOAD bytes) at `out[0..]`; returns its length. */
  seal(payload: Uint8Array, out: Uint8Array): number {
    const pad = this.padded ? this.shake!.next() % 64 : 0;
    const size = payload.length + this.tag + pad;
    let p = this.sizeBytes;
    if (this.lengthAead) {
      const v = size - 16;
      this.sizeScratch[0] = v >> 8;
      this.sizeScratch[1] = v & 255;
      this.lengthAead.seal(this.lengthNonce!.next(), this.sizeScratch, out);
    } else {
      const v = this.masked ? size ^ this.shake!.next() : size;
      out[0] = v >> 8;
      out[1] = v & 255;
    }
    if (this.aead) p += this.aead.seal(this.nonce.next(), payload, out.subarray(p));
    else {
      out.set(payload, p);
      p += payload.length;
    }
    if (pad > 0) {
      crypto.getRandomValues(out.subarray(p, p + pad) as Uint8Array<ArrayBuffer>);
      p += pad;
    }
    return p;
  }
}

export class ChunkOpener extends ChunkCodec {
  /** Decoded size and padding of the chunk being read: -1 until its size field is in. */
  private size = -1;
  private pad = 0;

  /**
   * Opens the chunk at the start of `b` in place. Returns undefined when more bytes are needed,
   * else how many bytes it took and where its payload is in `b` (length 0: end of stream).
   */
  open(b: Uint8Array): { consumed: number; start: number; length: number } | undefined {
    if (this.size < 0) {
      if (b.length < this.sizeBytes) return undefined;
      this.pad = this.padded ? this.shake!.next() % 64 : 0;
      if (this.lengthAead) {
        if (this.lengthAead.open(this.lengthNonce!.next(), b.subarray(0, 18), this.sizeScratch) !== 2) {
          throw new ProtocolError("VMess chunk length does not authenticate");
        }
        this.size = ((this.sizeScratch[0] << 8) | this.sizeScratch[1]) + 16;
      } else {
        const v = (b[0] << 8) | b[1];
        this.size = this.masked ? (v ^ this.shake!.next()) & 0xffff : v;
      }
      if (this.size < this.tag + this.pad) {
        throw new ProtocolError(`VMess chunk size ${this.size} is too small`);
      }
    }
    const end = this.sizeBytes + this.size;
    if (b.length < end) return undefined;
    const sealed = b.subarray(this.sizeBytes, end - this.pad);
    let length = sealed.length;
    if (this.aead) {
      length = this.aead.open(this.nonce.next(), sealed, sealed);
      if (length < 0) throw new ProtocolError("VMess chunk does not authenticate");
    }
    this.size = -1;
    return { consumed: end, start: this.sizeBytes, length };
  }
}
