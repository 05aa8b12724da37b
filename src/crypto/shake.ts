/**
 * SHAKE128 read as an endless byte stream: vmess masks each chunk length with the next two bytes
 * of SHAKE128(nonce). @noble/hashes squeezes one 168-byte block (the SHAKE128 rate) at a time into
 * a buffer this object owns, so reading 2 bytes per chunk allocates nothing. node:crypto cannot
 * squeeze incrementally (its output length is fixed up front).
 */
import { shake128 } from "@noble/hashes/sha3.js";

/** The SHAKE128 rate: one Keccak permutation's worth of output. */
const RATE = 168;

export class Shake128Stream {
  readonly #xof;
  readonly #buf = new Uint8Array(RATE);
  #pos = RATE;

  constructor(seed: Uint8Array) {
    this.#xof = shake128.create({});
    this.#xof.update(seed);
  }

  /** Fills `out` with the next bytes of the stream. */
  read(out: Uint8Array): void {
    for (let i = 0; i < out.length; i++) out[i] = this.#next();
  }

  /** The next two bytes as a big-endian unsigned integer (vmess' length mask). */
  nextUint16(): number {
    return (this.#next() << 8) | this.#next();
  }

  #next(): number {
    if (this.#pos === RATE) {
      this.#xof.xofInto(this.#buf);
      this.#pos = 0;
    }
    return this.#buf[this.#pos++];
  }
}
