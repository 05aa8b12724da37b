/** Client side of SOCKS4/4a/5 over a Conn already connected to the server. */
import type { Address, Conn } from "../../adapter/mod.ts";
import { DialError, ProtocolError } from "../../common/errors.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { writeAll } from "../../net/relay.ts";
import * as wire from "./wire.ts";

export interface SocksClientOptions {
  version: "4" | "4a" | "5";
  username?: string;
  password?: string;
}

/** Runs the handshake for `cmd`; returns the stream and the server's bound address. */
export async function socksHandshake(
  raw: Conn,
  cmd: number,
  dest: Address,
  opts: SocksClientOptions,
): Promise<{ conn: BufferedConn; bound: Address }> {
  const conn = new BufferedConn(raw, undefined, 512);
  if (opts.version !== "5") {
    await writeAll(conn, wire.encodeSocks4Request(cmd, dest, opts.username ?? "", opts.version === "4a"));
    const reply = await conn.readExact(8);
    if (reply[1] !== 0x5a) throw new DialError(`SOCKS4 server rejected the request (code ${reply[1]})`);
    return { conn, bound: dest };
  }
  const withAuth = opts.username !== undefined && opts.username !== "";
  await writeAll(
    conn,
    new Uint8Array(withAuth ? [5, 2, wire.AUTH_NONE, wire.AUTH_PASSWORD] : [5, 1, wire.AUTH_NONE]),
  );
  const choice = await conn.readExact(2);
  if (choice[0] !== 5) throw new ProtocolError(`SOCKS5 server answered version ${choice[0]}`);
  if (choice[1] === wire.AUTH_PASSWORD) {
    if (!withAuth) throw new DialError("SOCKS5 server requires a username and password");
    await writeAll(conn, wire.encodePasswordAuth(opts.username!, opts.password ?? ""));
    const status = await conn.readExact(2);
    if (status[1] !== 0) throw new DialError("SOCKS5 authentication failed");
  } else if (choice[1] !== wire.AUTH_NONE) {
    throw new DialError("SOCKS5 server accepts none of our authentication methods");
  }
  await writeAll(conn, wire.encodeRequest(cmd, dest));
  while (true) {
    const reply = wire.decodeRequest(conn.buffered());
    if (reply) {
      conn.consume(reply.length);
      if (reply.cmd !== wire.REP.succeeded) {
        throw new DialError(`SOCKS5 server replied ${replyText(reply.cmd)}`);
      }
      return { conn, bound: reply.addr };
    }
    if (!(await conn.fill(1024))) throw new ProtocolError("SOCKS5 server closed during the handshake");
  }
}

function replyText(code: number): string {
  const names = Object.entries(wire.REP).find(([, v]) => v === code)?.[0];
  return names ? `"${names}" (${code})` : `code ${code}`;
}
