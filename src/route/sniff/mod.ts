/**
 * Protocol sniffers: pure functions over the first bytes (TCP) or datagrams (UDP) a client sent, like
 * sing-box's. The router calls `sniffStream` or `sniffPackets`, reads more while the answer is
 * `need_more` (until its timeout), and uses the protocol, domain and client of a `found` answer.
 * No I/O and no state: the same bytes always give the same answer, and no input makes these throw.
 */
import { sniffBitTorrentPacket, sniffBitTorrentStream } from "./bittorrent.ts";
import { sniffDnsPacket, sniffDnsStream } from "./dns.ts";
import { sniffDtls } from "./dtls.ts";
import { sniffHttp } from "./http.ts";
import { sniffNtp } from "./ntp.ts";
import { sniffQuic } from "./quic.ts";
import { sniffRdp } from "./rdp.ts";
import { sniffSsh } from "./ssh.ts";
import { sniffStun } from "./stun.ts";
import { sniffTls } from "./tls.ts";
import { NEED_MORE, NONE, type PacketSniffer, type SniffOutcome, type StreamSniffer } from "./types.ts";

export type { SniffOutcome, SniffResult } from "./types.ts";

/** Stream sniffers in the order they are tried; the first `found` wins. */
const STREAM: ReadonlyArray<readonly [string, StreamSniffer]> = [
  ["tls", sniffTls],
  ["http", sniffHttp],
  ["ssh", sniffSsh],
  ["rdp", sniffRdp],
  ["bittorrent", sniffBitTorrentStream],
  ["dns", sniffDnsStream],
];

/** Packet sniffers in the order they are tried; the stricter checks come before the looser ones. */
const PACKET: ReadonlyArray<readonly [string, PacketSniffer]> = [
  ["quic", sniffQuic],
  ["dns", sniffDnsPacket],
  ["stun", sniffStun],
  ["dtls", sniffDtls],
  ["ntp", sniffNtp],
  ["bittorrent", sniffBitTorrentPacket],
];

export const STREAM_SNIFFERS: readonly string[] = Object.freeze(STREAM.map(([name]) => name));
export const PACKET_SNIFFERS: readonly string[] = Object.freeze(PACKET.map(([name]) => name));

/**
 * Stream (TCP) sniffing over the bytes read so far from the client. `allowed`: sniffer names to try
 * (all when undefined).
 */
export function sniffStream(data: Uint8Array, allowed?: ReadonlySet<string>): SniffOutcome {
  return run(STREAM, data, allowed);
}

/**
 * Packet (UDP) sniffing over the client's datagrams so far (QUIC may spread a ClientHello over several
 * Initial packets). `allowed`: sniffer names to try (all when undefined).
 */
export function sniffPackets(packets: readonly Uint8Array[], allowed?: ReadonlySet<string>): SniffOutcome {
  return run(PACKET, packets, allowed);
}

function run<T>(
  sniffers: ReadonlyArray<readonly [string, (input: T) => SniffOutcome]>,
  input: T,
  allowed: ReadonlySet<string> | undefined,
): SniffOutcome {
  let needMore = false;
  for (const [name, sniff] of sniffers) {
    if (allowed && !allowed.has(name)) continue;
    let outcome: SniffOutcome;
    try {
      outcome = sniff(input);
    } catch {
      outcome = NONE; // a bug in one sniffer must not break routing; the fuzz test keeps this unreached
    }
    if (outcome.kind === "found") return outcome;
    if (outcome.kind === "need_more") needMore = true;
  }
  return needMore ? NEED_MORE : NONE;
}
