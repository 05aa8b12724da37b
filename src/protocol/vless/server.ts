/**
 * Server side of VLESS on an accepted stream (TLS and transport already applied): checks the
 * UUID, then hands the stream (TCP) or a PacketConn (UDP: length-prefixed, packetaddr, or XUDP
 * with the mux command) to the router. Unknown users and bad headers close the connection.
 */
import type { Address, Conn, ConnectionHandler, Metadata, PacketConn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import {
  FixedPacketConn,
  LengthPacketStream,
  MUX_COOL_HOST,
  PACKET_ADDR_MAGIC,
  PacketAddrConn,
  XudpServerConn,
} from "../../transport/xudp/mod.ts";
import { VlessConn } from "./conn.ts";
import type { VlessUsers } from "./users.ts";
import { CMD_MUX, CMD_TCP, decodeRequest, RESPONSE } from "./wire.ts";

export interface VlessServerOptions {
  inbound: string;
  users: VlessUsers;
  handler: ConnectionHandler;
  logger: Logger;
}

export async function serveVless(raw: Conn, source: Address, o: VlessServerOptions): Promise<void> {
  const conn = new BufferedConn(raw, undefined, 4096);
  const deadline = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
  let req;
  try {
    while (!(req = decodeRequest(conn.buffered()))) {
      if (!(await conn.fill(4096))) throw new ProtocolError("Connection closed during VLESS handshake");
    }
    conn.consume(req.length);
  } catch (e) {
    deadline.clear();
    conn.close();
    if (e instanceof ProtocolError) {
      o.logger.debug(`vless from ${source.host}:${source.port}: ${e.message}`);
      return;
    }
    throw e;
  }
  deadline.clear();
  const user = o.users.lookup(req.uuid);
  if (!user || req.flow) {
    conn.close();
    o.logger.debug(
      `vless from ${source.host}:${source.port}: ${
        user ? `flow "${req.flow}" is not supported` : "unknown user"
      }`,
    );
    return;
  }
  const stream = new VlessConn(conn, RESPONSE, false);
  const metadata: Metadata = {
    inbound: o.inbound,
    inboundType: "vless",
    network: "tcp",
    source,
    destination: req.destination ?? { host: MUX_COOL_HOST, port: 0 },
    user: user.name,
  };
  if (req.command === CMD_TCP) return await o.handler.routeConnection(stream, metadata);
  let packets: PacketConn;
  if (req.command === CMD_MUX) packets = new XudpServerConn(stream);
  else if (metadata.destination.host === PACKET_ADDR_MAGIC) {
    packets = new PacketAddrConn(new LengthPacketStream(stream));
  } else packets = new FixedPacketConn(new LengthPacketStream(stream), metadata.destination);
  try {
    await o.handler.routePacketConnection(packets, { ...metadata, network: "udp" });
  } finally {
    packets.close();
  }
}
