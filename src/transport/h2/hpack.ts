/**
 * HPACK (RFC 7541) through the `hpack.js` npm package (the codec node's spdy stack uses): one
 * encoder and one decoder per connection, since both keep a dynamic table. Only header blocks go
 * through here, never data, so its stream-style API costs nothing on the hot path.
 */
import hpack from "hpack.js";
import { ProtocolError } from "../../common/errors.ts";

interface HpackHeader {
  name: string;
  value: string;
}
interface Compressor {
  write(h: HpackHeader[]): void;
  read(): Uint8Array | null;
  updateTableSize(size: number): void;
}
interface Decompressor {
  write(b: Uint8Array): void;
  execute(): void;
  read(): HpackHeader | null;
}

export type HeaderList = [string, string][];

export class HpackCodec {
  private enc = (hpack as { compressor: { create(o: unknown): Compressor } }).compressor.create({
    table: { size: 4096 },
  });
  private dec = (hpack as { decompressor: { create(o: unknown): Decompressor } }).decompressor.create({
    table: { size: 4096 },
  });

  encode(headers: HeaderList): Uint8Array {
    this.enc.write(headers.map(([name, value]) => ({ name, value })));
    const parts: Uint8Array[] = [];
    for (let b = this.enc.read(); b !== null; b = this.enc.read()) parts.push(b);
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }

  decode(block: Uint8Array): HeaderList {
    const out: HeaderList = [];
    try {
      this.dec.write(block);
      this.dec.execute();
      for (let h = this.dec.read(); h !== null; h = this.dec.read()) out.push([h.name, h.value]);
    } catch (e) {
      throw new ProtocolError(`HTTP/2 header block is malformed: ${e instanceof Error ? e.message : e}`);
    }
    return out;
  }

  /** The peer's SETTINGS_HEADER_TABLE_SIZE bounds our encoder's table. */
  setEncoderTableSize(size: number): void {
    this.enc.updateTableSize(Math.min(size, 4096));
  }
}
