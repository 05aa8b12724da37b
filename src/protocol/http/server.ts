/**
 * Server side of an HTTP proxy on an accepted stream: CONNECT tunnels, and absolute-URI
 * requests forwarded with keep-alive (each request routed by its own host; the upstream
 * connection is reused while the host stays the same). Shared by the `http` and `mixed` inbounds.
 */
import type { Address, Conn, ConnectionHandler, Metadata } from "../../adapter/mod.ts";
import { ProtocolError, SvcError } from "../../common/errors.ts";
import type { BufferedConn } from "../../net/buffered_conn.ts";
import { BufferedConn as Buffered } from "../../net/buffered_conn.ts";
import { relay, writeAll } from "../../net/relay.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS, KEEP_ALIVE_IDLE_MS } from "../../net/deadline.ts";
import { LazyReplyConn } from "../../net/lazy_reply_conn.ts";
import { copyBody } from "./body.ts";
import * as wire from "./wire.ts";

export interface HttpServerOptions {
  inbound: string;
  inboundType: string;
  users: ReadonlyMap<string, string>;
  handler: ConnectionHandler;
}

const CONNECTED = new TextEncoder().encode("HTTP/1.1 200 Connection established\r\n\r\n");

export async function serveHttp(conn: BufferedConn, source: Address, opts: HttpServerOptions): Promise<void> {
  let upstream: { key: string; conn: Buffered } | undefined;
  try {
    for (let first = true;; first = false) {
      const deadline = closeAfter(conn, first ? HANDSHAKE_TIMEOUT_MS : KEEP_ALIVE_IDLE_MS);
      const head = await readHead(conn, "request").finally(() => deadline.clear());
      if (!head) return;
      const [method, target, version] = head.startLine;
      const user = authenticate(head, opts.users);
      if (user === false) {
        await writeAll(
          conn,
          wire.simpleResponse(407, "Proxy Authentication Required", [[
            "Proxy-Authenticate",
            'Basic realm="svc"',
          ]]),
        );
        return;
      }
      const base = {
        inbound: opts.inbound,
        inboundType: opts.inboundType,
        network: "tcp" as const,
        source,
        user: user ?? undefined,
      };
      if (method.toUpperCase() === "CONNECT") {
        const dest = wire.parseAuthority(target);
        if (!dest) {
          await writeAll(conn, wire.simpleResponse(400, "Bad Request"));
          return;
        }
        conn.consume(head.length);
        upstream?.conn.close();
        upstream = undefined;
        const reply = new LazyReplyConn(
          conn,
          CONNECTED,
          (e) =>
            isRejection(e) ? wire.simpleResponse(403, "Forbidden") : wire.simpleResponse(502, "Bad Gateway"),
        );
        return await opts.handler.routeConnection(reply, { ...base, destination: dest });
      }
      const t = wire.parseAbsoluteTarget(target);
      if (!t) {
        await writeAll(conn, wire.simpleResponse(400, "Bad Request"));
        return;
      }
      const key = `${t.host}|${t.port}`;
      const requestHead = wire.encodeHead(
        `${method} ${t.path} ${version}`,
        wire.forwardHeaders(head.headers),
      );
      if (!upstream || upstream.key !== key) {
        upstream?.conn.close();
        upstream = undefined;
        const metadata: Metadata = { ...base, destination: { host: t.host, port: t.port } };
        let dialed: Conn | null;
        try {
          dialed = await opts.handler.dialConnection(metadata, requestHead);
        } catch {
          await writeAll(conn, wire.simpleResponse(502, "Bad Gateway"));
          return;
        }
        if (!dialed) {
          await writeAll(conn, wire.simpleResponse(403, "Forbidden"));
          return;
        }
        upstream = { key, conn: new Buffered(dialed) };
      }
      const up = upstream.conn;
      const requestFraming = wire.requestBody(head);
      conn.consume(head.length);
      await writeAll(up, requestHead);
      // The request body goes up while the response may already come down (100-continue).
      const sending = copyBody(conn, up, requestFraming);
      let response: wire.MessageHead | undefined;
      while (true) {
        response = await readHead(up, "response");
        if (!response) throw new ProtocolError("Upstream closed before responding");
        const status = Number(response.startLine[1]);
        if (status >= 200 || status === 101) break;
        await writeAll(conn, up.buffered().subarray(0, response.length));
        up.consume(response.length);
      }
      const status = Number(response.startLine[1]);
      await writeAll(conn, up.buffered().slice(0, response.length));
      up.consume(response.length);
      if (status === 101) {
        // Protocol switch (WebSocket): from here on, a plain tunnel.
        await sending.catch(() => {});
        await relay(conn, up);
        return;
      }
      const framing = wire.responseBody(response, method.toUpperCase());
      await copyBody(up, conn, framing);
      await sending;
      if (
        framing.kind === "until_close" || !wire.keepAlive(head, version) ||
        !wire.keepAlive(response, response.startLine[0])
      ) {
        return;
      }
    }
  } finally {
    upstream?.conn.close();
  }
}

async function readHead(
  conn: BufferedConn,
  kind: "request" | "response",
): Promise<wire.MessageHead | undefined> {
  while (true) {
    const h = wire.decodeHead(conn.buffered(), kind);
    if (h) return h;
    if (!(await conn.fill(wire.MAX_HEAD))) {
      if (conn.buffered().length === 0) return undefined;
      throw new ProtocolError(`Connection closed inside an HTTP ${kind} head`);
    }
  }
}

/** Undefined when no users are configured; false when credentials are missing or wrong. */
function authenticate(
  head: wire.MessageHead,
  users: ReadonlyMap<string, string>,
): string | false | undefined {
  if (users.size === 0) return undefined;
  const value = wire.header(head.headers, "proxy-authorization");
  const m = value && /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(value);
  if (!m) return false;
  let text: string;
  try {
    text = new TextDecoder().decode(Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0)));
  } catch {
    return false;
  }
  const c = text.indexOf(":");
  if (c < 0) return false;
  const name = text.slice(0, c);
  return users.get(name) === text.slice(c + 1) ? name : false;
}

function isRejection(e: unknown): boolean {
  return e instanceof SvcError && e.code === "rejected";
}
