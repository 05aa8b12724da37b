/**
 * Server side of trojan on one stream (TLS already done by the layers): authenticate the key,
 * then CONNECT or UDP ASSOCIATE. Anything that is not a request from a known user goes, with
 * the bytes already read, to the fallback server as trojan-gfw does; without one it is closed.
 */
import type { Address, Conn, ConnectionHandler, Metadata, StreamInfo } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import { TrojanPacketConn } from "./udp_stream.ts";
import type { TrojanUserEntry, TrojanUsers } from "./users.ts";
import { CMD_CONNECT, decodeCommand, decodeKey, type TrojanCommand } from "./wire.ts";

export interface TrojanFallback {
  /** Used for connections with no ALPN, or any ALPN when `byAlpn` is empty. */
  default?: Address;
  /** By negotiated ALPN; when non-empty, an ALPN missing from it is refused (as sing-box). */
  byAlpn: ReadonlyMap<string, Address>;
}

export interface TrojanServerOptions {
  inbound: string;
  users: TrojanUsers;
  fallback: TrojanFallback;
  handler: ConnectionHandler;
  logger: Logger;
}

/** Largest request header: key, CRLF, command, a 255-byte name, port, CRLF. */
const MAX_HEADER = 56 + 2 + 1 + 2 + 255 + 2 + 2;

type Outcome =
  | { kind: "request"; user: TrojanUserEntry; req: TrojanCommand }
  | { kind: "reject"; reason: string };

async function readRequest(conn: BufferedConn, users: TrojanUsers): Promise<Outcome> {
  try {
    let key: string | undefined;
    while ((key = decodeKey(conn.buffered())) === undefined) {
      if (!(await conn.fill(MAX_HEADER))) {
        return { kind: "reject", reason: "the stream ended before the key" };
      }
    }
    const user = users.lookup(key);
    if (!user) return { kind: "reject", reason: "unknown password" };
    let req: TrojanCommand | undefined;
    while ((req = decodeCommand(conn.buffered())) === undefined) {
      if (!(await conn.fill(MAX_HEADER))) {
        return { kind: "reject", reason: "the stream ended inside the request" };
      }
    }
    return { kind: "request", user, req };
  } catch (e) {
    if (e instanceof ProtocolError) return { kind: "reject", reason: e.message };
    throw e;
  }
}

function fallbackFor(f: TrojanFallback, alpn: string | undefined): Address | undefined {
  if (alpn && f.byAlpn.size > 0) return f.byAlpn.get(alpn);
  return f.default;
}

export async function serveTrojan(
  raw: Conn,
  source: Address,
  info: StreamInfo,
  opts: TrojanServerOptions,
): Promise<void> {
  const conn = new BufferedConn(raw, undefined, 4096);
  const deadline = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
  let outcome: Outcome;
  try {
    outcome = await readRequest(conn, opts.users);
  } finally {
    deadline.clear();
  }
  const base = { inbound: opts.inbound, inboundType: "trojan", source };
  if (outcome.kind === "reject") {
    const to = fallbackFor(opts.fallback, info.alpn);
    if (!to) throw new ProtocolError(`Trojan request refused: ${outcome.reason}`);
    opts.logger.debug(`fallback to ${to.host}:${to.port}: ${outcome.reason}`);
    // The bytes read so far are still in the buffer: the fallback server sees them first.
    return await opts.handler.routeConnection(conn, { ...base, network: "tcp", destination: to });
  }
  const { user, req } = outcome;
  conn.consume(req.length);
  const metadata: Metadata = { ...base, network: "tcp", destination: req.addr, user: user.name };
  if (req.cmd === CMD_CONNECT) {
    // Nothing read ahead: hand on the TLS stream itself, with no copy layer in between.
    const stream = conn.buffered().length > 0 ? conn : raw;
    return await opts.handler.routeConnection(stream, metadata);
  }
  const packets = new TrojanPacketConn(conn);
  try {
    await opts.handler.routePacketConnection(packets, { ...metadata, network: "udp" });
  } finally {
    packets.close();
  }
}
