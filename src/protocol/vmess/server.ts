/**
 * Server side of VMess AEAD on an accepted stream: find the user from the auth id, check its time
 * and freshness, open the header, then hand a VmessConn (TCP) or a PacketConn (UDP, packetaddr,
 * XUDP) to the router. A failed handshake does not close at once: like v2ray it reads and drops a
 * per-inbound amount of bytes (plus a little jitter) first, so a prober cannot tell from where the
 * connection closes how far its bytes got; the handshake deadline bounds the wait.
 */
import type { Address, Conn, ConnectionHandler, Metadata } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import {
  FixedPacketConn,
  PACKET_ADDR_MAGIC,
  PacketAddrConn,
  XudpServerConn,
} from "../../transport/xudp/mod.ts";
import { ChunkOpener, ChunkSealer } from "./body.ts";
import { VmessConn } from "./conn.ts";
import { openRequestHeader, openRequestLength, SEALED_PREFIX_SIZE, sealResponseHeader } from "./header.ts";
import { sha256 } from "./kdf.ts";
import { AUTH_WINDOW_S, type ReplayFilter, type VmessUsers } from "./users.ts";
import {
  CMD_MUX,
  CMD_TCP,
  CMD_UDP,
  decodeInstruction,
  OPT_CHUNK_STREAM,
  SEC_LEGACY,
  SEC_NONE,
} from "./wire.ts";

export interface VmessServerOptions {
  inbound: string;
  users: VmessUsers;
  replay: ReplayFilter;
  handler: ConnectionHandler;
  logger: Logger;
  /** Bytes to drain before closing a failed handshake (chosen once per inbound). */
  drainBase: number;
  now?: () => number;
}

export async function serveVmess(raw: Conn, source: Address, o: VmessServerOptions): Promise<void> {
  const conn = new BufferedConn(raw, undefined, 4096);
  const deadline = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
  let vconn: VmessConn;
  let metadata: Metadata;
  let command: number;
  try {
    ({ vconn, metadata, command } = await handshake(conn, source, o));
  } catch (e) {
    o.logger.debug(`vmess from ${source.host}:${source.port}: ${(e as Error).message}`);
    await drain(conn, o.drainBase + Math.floor(Math.random() * 64));
    deadline.clear();
    conn.close();
    if (e instanceof ProtocolError) return;
    throw e;
  }
  deadline.clear();
  if (command === CMD_TCP) return await o.handler.routeConnection(vconn, metadata);
  const dest = metadata.destination;
  const packets = command === CMD_MUX
    ? new XudpServerConn(vconn)
    : dest.host === PACKET_ADDR_MAGIC
    ? new PacketAddrConn(vconn)
    : new FixedPacketConn(vconn, dest);
  try {
    await o.handler.routePacketConnection(packets, { ...metadata, network: "udp" });
  } finally {
    packets.close();
  }
}

async function handshake(conn: BufferedConn, source: Address, o: VmessServerOptions) {
  const prefix = await conn.need(SEALED_PREFIX_SIZE);
  const authId = prefix.subarray(0, 16);
  const found = o.users.match(authId);
  if (!found) throw new ProtocolError("VMess auth id matches no user");
  const now = (o.now ?? Date.now)() / 1000;
  if (Math.abs(now - found.time) > AUTH_WINDOW_S) {
    throw new ProtocolError(
      `VMess auth id time is ${Math.round(now - found.time)} s off (allowed ±${AUTH_WINDOW_S})`,
    );
  }
  if (!o.replay.add(authId, now)) throw new ProtocolError("VMess auth id replayed");
  const { cmdKey, entry } = found.user;
  const length = openRequestLength(cmdKey, prefix);
  if (length < 0) throw new ProtocolError("VMess header length does not authenticate");
  const all = await conn.need(SEALED_PREFIX_SIZE + length + 16);
  const header = openRequestHeader(
    cmdKey,
    all.subarray(0, SEALED_PREFIX_SIZE),
    all.subarray(SEALED_PREFIX_SIZE, SEALED_PREFIX_SIZE + length + 16),
  );
  conn.consume(SEALED_PREFIX_SIZE + length + 16);
  const ins = decodeInstruction(header);
  if (ins.security === SEC_LEGACY) {
    throw new ProtocolError("VMess legacy security (aes-128-cfb) is not supported");
  }
  const chunked = (ins.options & OPT_CHUNK_STREAM) !== 0;
  if (!chunked && ins.security !== SEC_NONE) {
    throw new ProtocolError("VMess AEAD security without chunk stream");
  }
  const packet = ins.command === CMD_UDP;
  const respKey = sha256(ins.bodyKey).subarray(0, 16);
  const respIv = sha256(ins.bodyIv).subarray(0, 16);
  const body = { security: ins.security, options: ins.options, packet };
  const vconn = new VmessConn(conn, {
    opener: chunked ? new ChunkOpener({ ...body, key: ins.bodyKey, iv: ins.bodyIv }) : undefined,
    sealer: chunked ? new ChunkSealer({ ...body, key: respKey, iv: respIv }) : undefined,
    prefix: sealResponseHeader(respKey, respIv, ins.respV),
  });
  const metadata: Metadata = {
    inbound: o.inbound,
    inboundType: "vmess",
    network: "tcp",
    source,
    destination: ins.destination ?? { host: "v1.mux.cool", port: 0 },
    user: entry.name,
  };
  return { vconn, metadata, command: ins.command };
}

/** Reads and drops up to `budget` bytes (bounded memory: one small buffer). */
async function drain(conn: BufferedConn, budget: number): Promise<void> {
  let left = budget - conn.buffered().length;
  conn.consume(conn.buffered().length);
  const sink = new Uint8Array(1024);
  try {
    while (left > 0) {
      const n = await conn.read(sink.subarray(0, Math.min(sink.length, left)));
      if (n === null) return;
      left -= n;
    }
  } catch { /* closed by the deadline or reset */ }
}
