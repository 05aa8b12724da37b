/** What a sniffer learned: sing-box's protocol name, and the domain or client when the protocol carries one. */
export type SniffResult = { protocol: string; domain?: string; client?: string };

/**
 * One sniffer's verdict on the bytes seen so far. `need_more`: the bytes look like this protocol but the
 * message is incomplete; `none`: this protocol cannot match.
 */
export type SniffOutcome = { kind: "found"; result: SniffResult } | { kind: "need_more" } | { kind: "none" };

/** A stream sniffer reads the client's first bytes; a packet sniffer its first datagrams. */
export type StreamSniffer = (data: Uint8Array) => SniffOutcome;
export type PacketSniffer = (packets: readonly Uint8Array[]) => SniffOutcome;

export const NONE: SniffOutcome = Object.freeze({ kind: "none" });
export const NEED_MORE: SniffOutcome = Object.freeze({ kind: "need_more" });

/** A `found` outcome; `domain` and `client` are left out when undefined. */
export function found(protocol: string, domain?: string, client?: string): SniffOutcome {
  const result: SniffResult = { protocol };
  if (domain !== undefined) result.domain = domain;
  if (client !== undefined) result.client = client;
  return { kind: "found", result };
}

/** Most datagrams any packet sniffer looks at, so a caller that keeps adding packets still gets an answer. */
export const MAX_PACKETS = 16;
/** Largest ClientHello (handshake message with its header) the TLS, QUIC and DTLS sniffers reassemble. */
export const MAX_CLIENT_HELLO = 65536;
