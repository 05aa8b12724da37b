/**
 * Server side of SOCKS4, SOCKS4a and SOCKS5 (CONNECT and UDP ASSOCIATE) on an accepted stream.
 * Shared by the `socks` and `mixed` inbounds.
 */
import type { Address, ConnectionHandler, Metadata } from "../../adapter/mod.ts";
import { DialError, ProtocolError, SvcError } from "../../common/errors.ts";
import type { Logger } from "../../common/log.ts";
import type { BufferedConn } from "../../net/buffered_conn.ts";
import { writeAll } from "../../net/relay.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import { LazyReplyConn } from "../../net/lazy_reply_conn.ts";
import { SocksUdpSession } from "./udp_session.ts";
import * as wire from "./wire.ts";

export interface SocksServerOptions {
  inbound: string;
  inboundType: string;
  /** username → password; empty means no authentication. */
  users: ReadonlyMap<string, string>;
  handler: ConnectionHandler;
  logger: Logger;
  udpTimeoutMs: number;
}

export async function serveSocks(
  conn: BufferedConn,
  source: Address,
  local: Address,
  opts: SocksServerOptions,
): Promise<void> {
  const deadline = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
  try {
    return await handshake(conn, source, local, opts, deadline);
  } finally {
    deadline.clear();
  }
}

async function handshake(
  conn: BufferedConn,
  source: Address,
  local: Address,
  opts: SocksServerOptions,
  deadline: { clear(): void },
): Promise<void> {
  const head = await conn.need(1);
  if (head[0] === wire.SOCKS4) return await serveSocks4(conn, source, opts, deadline);
  if (head[0] !== wire.SOCKS5) throw new ProtocolError(`Unknown SOCKS version ${head[0]}`);

  const greeting = await parse(conn, wire.decodeGreeting);
  const method = opts.users.size > 0 ? wire.AUTH_PASSWORD : wire.AUTH_NONE;
  if (!greeting.methods.includes(method)) {
    await writeAll(conn, new Uint8Array([wire.SOCKS5, wire.AUTH_NO_ACCEPTABLE]));
    throw new ProtocolError("SOCKS5 client offers no acceptable authentication method");
  }
  await writeAll(conn, new Uint8Array([wire.SOCKS5, method]));
  let user: string | undefined;
  if (method === wire.AUTH_PASSWORD) {
    const auth = await parse(conn, wire.decodePasswordAuth);
    const ok = opts.users.get(auth.username) === auth.password;
    await writeAll(conn, new Uint8Array([1, ok ? 0 : 1]));
    if (!ok) throw new ProtocolError(`SOCKS5 authentication failed for user "${auth.username}"`);
    user = auth.username;
  }

  const req = await parse(conn, wire.decodeRequest);
  const metadata: Metadata = {
    inbound: opts.inbound,
    inboundType: opts.inboundType,
    network: "tcp",
    source,
    destination: req.addr,
    user,
  };
  deadline.clear();
  if (req.cmd === wire.CMD_CONNECT) {
    const reply = new LazyReplyConn(
      conn,
      wire.encodeReply(wire.REP.succeeded),
      (e) => wire.encodeReply(replyCode(e)),
    );
    return await opts.handler.routeConnection(reply, metadata);
  }
  if (req.cmd === wire.CMD_UDP_ASSOCIATE) return await associate(conn, metadata, local, opts);
  await writeAll(conn, wire.encodeReply(wire.REP.commandNotSupported));
  throw new ProtocolError(`SOCKS5 command ${req.cmd} is not supported`);
}

async function serveSocks4(
  conn: BufferedConn,
  source: Address,
  opts: SocksServerOptions,
  deadline: { clear(): void },
): Promise<void> {
  const req = await parse(conn, wire.decodeSocks4Request);
  deadline.clear();
  // SOCKS4 carries no password: with users configured only SOCKS5 may authenticate.
  if (opts.users.size > 0 || req.cmd !== wire.CMD_CONNECT) {
    await writeAll(conn, wire.encodeSocks4Reply(false));
    throw new ProtocolError(
      opts.users.size > 0
        ? "SOCKS4 refused: the inbound requires a password"
        : `SOCKS4 command ${req.cmd} is not supported`,
    );
  }
  const metadata: Metadata = {
    inbound: opts.inbound,
    inboundType: opts.inboundType,
    network: "tcp",
    source,
    destination: req.addr,
  };
  const reply = new LazyReplyConn(conn, wire.encodeSocks4Reply(true), () => wire.encodeSocks4Reply(false));
  await opts.handler.routeConnection(reply, metadata);
}

/** UDP ASSOCIATE: a relay socket per association, living as long as the control stream. */
async function associate(conn: BufferedConn, metadata: Metadata, local: Address, opts: SocksServerOptions) {
  const session = new SocksUdpSession(local.host, metadata.source.host, opts.udpTimeoutMs);
  await writeAll(conn, wire.encodeReply(wire.REP.succeeded, { host: local.host, port: session.port }));
  // The association ends when the client closes the control stream (RFC 1928 §7).
  const watch = (async () => {
    const sink = new Uint8Array(256);
    try {
      while ((await conn.read(sink)) !== null) { /* ignore stray bytes */ }
    } catch { /* reset */ }
    session.close();
  })();
  try {
    await opts.handler.routePacketConnection(session, { ...metadata, network: "udp" });
  } finally {
    session.close();
    conn.close();
    await watch;
  }
}

async function parse<T extends { length: number }>(
  conn: BufferedConn,
  decode: (b: Uint8Array) => T | undefined,
): Promise<T> {
  while (true) {
    const got = decode(conn.buffered());
    if (got) {
      conn.consume(got.length);
      return got;
    }
    if (!(await conn.fill(4096))) throw new ProtocolError("Connection closed during SOCKS handshake");
  }
}

/** Maps a dial failure to the closest SOCKS5 reply code. */
function replyCode(e: unknown): number {
  if (e instanceof SvcError && e.code === "rejected") return wire.REP.notAllowed;
  const text = String((e as Error)?.message ?? e);
  if (/refused/i.test(text)) return wire.REP.connectionRefused;
  if (/network is unreachable/i.test(text)) return wire.REP.networkUnreachable;
  if (/timed out|timeout/i.test(text)) return wire.REP.ttlExpired;
  if (/rejected|blocked/i.test(text)) return wire.REP.notAllowed;
  if (e instanceof DialError || /resolve|unreachable/i.test(text)) return wire.REP.hostUnreachable;
  return wire.REP.generalFailure;
}
