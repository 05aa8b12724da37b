/**
 * Byte-stream and packet connections as every layer sees them. The shape is Deno.Conn's own
 * read/write/closeWrite/close, so a raw socket needs no wrapper on the hot path, and protocol
 * layers (TLS, transports, proxy framing) wrap a Conn into another Conn by composition.
 */
import type { Address } from "./metadata.ts";

export interface Conn {
  /** Reads into `p`; resolves to the byte count, or null at end of stream. */
  read(p: Uint8Array): Promise<number | null>;
  /** Writes some of `p`; resolves to the byte count written. */
  write(p: Uint8Array): Promise<number>;
  /** Half-close: sends end-of-stream and keeps reading. */
  closeWrite(): Promise<void>;
  /** Closes both directions; safe to call twice. */
  close(): void;
  /** The underlying Deno socket when this Conn is one, so relays can take a faster path. */
  readonly raw?: Deno.Conn;
}

/** One datagram with its peer address (the destination when writing, the source when read). */
export interface Packet {
  data: Uint8Array;
  addr: Address;
}

export interface PacketConn {
  /** Resolves to the next datagram, or null once closed. */
  readPacket(): Promise<Packet | null>;
  writePacket(data: Uint8Array, addr: Address): Promise<void>;
  close(): void;
}

/**
 * A Conn whose inbound handshake completes only once the outbound side is known: a SOCKS reply,
 * an HTTP `200 Connection established`. The router reports the dial's outcome; the first read
 * reports success early (clients send nothing before the reply, and sniffing must read).
 */
export interface HandshakeConn extends Conn {
  handshakeSuccess(): Promise<void>;
  handshakeFailure(error: unknown): Promise<void>;
}

export function isHandshakeConn(c: Conn): c is HandshakeConn {
  return typeof (c as HandshakeConn).handshakeSuccess === "function";
}
