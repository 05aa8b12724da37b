/**
 * The http transport server (sing-box `v2rayhttp`): HTTP/2 with TLS; without TLS it accepts both
 * h2c prior knowledge and HTTP/1.1, told apart by the first bytes. Checks as sing-box: host (when
 * listed), path prefix, method; answers 200 with `Cache-Control: no-store` and the configured
 * headers, then the request and response bodies are the tunnel.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { TransportModel } from "../../config/mod.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import { writeAll } from "../../net/relay.ts";
import { PREFACE } from "../h2/frame.ts";
import { H2Session } from "../h2/session.ts";
import type { H2Stream } from "../h2/stream.ts";
import { buffered, buildHead, headerPairs, normalizePath, readHead } from "../http1.ts";
import type { TransportServer } from "../types.ts";

type HttpModel = Extract<TransportModel, { type: "http" }>;

export function httpServer(m: HttpModel, tls: boolean): TransportServer {
  const path = normalizePath(m.path);
  const method = m.method || "PUT";
  const hosts = (m.host ?? []) as string[];
  const extra = headerPairs(m.headers as Record<string, string | string[]>);
  const check = (host: string, p: string, meth: string): string =>
    hosts.length && !hosts.includes(host)
      ? "400"
      : !p.startsWith(path)
      ? "404"
      : meth !== method
      ? "404"
      : "200";

  const serveH2 = async (conn: Conn, onStream: (s: Conn) => Promise<void>) => {
    const timer = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
    const serveStream = async (session: H2Session, stream: H2Stream, h: [string, string][]) => {
      timer.clear();
      const get = (k: string) => h.find(([n]) => n === k)?.[1] ?? "";
      const status = check(get(":authority") || get("host"), get(":path"), get(":method"));
      if (status !== "200") {
        await session.respond(stream, [[":status", status]], true).catch(() => {});
        stream.close();
        return;
      }
      await session.respond(stream, [
        [":status", "200"],
        ["cache-control", "no-store"],
        ...extra.map(([k, v]) => [k.toLowerCase(), v] as [string, string]),
      ]);
      try {
        await onStream(stream);
      } finally {
        await stream.closeWrite().catch(() => {});
        stream.close();
      }
    };
    const session: H2Session = new H2Session(conn, {
      client: false,
      onRequest: (s, h) => void serveStream(session, s, h).catch(() => s.close()),
    });
    await session.done;
    timer.clear();
  };

  return {
    alpn: ["h2", "http/1.1"],
    async serve(raw: Conn, onStream: (s: Conn) => Promise<void>): Promise<void> {
      if (tls) return await serveH2(raw, onStream);
      const conn = buffered(raw);
      const timer = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
      try {
        await conn.need(4, 4096);
      } finally {
        timer.clear();
      }
      const head = conn.buffered();
      if (PREFACE.subarray(0, 4).every((b, i) => head[i] === b)) return await serveH2(conn, onStream);
      const req = await readHead(conn);
      const status = check(req.headers.get("host") ?? "", req.start[1], req.start[0]);
      if (status !== "200") {
        await writeAll(
          conn,
          buildHead(`HTTP/1.1 ${status} ${status === "400" ? "Bad Request" : "Not Found"}`, [
            ["Content-Length", "0"],
            ["Connection", "close"],
          ]),
        ).catch(() => {});
        throw new ProtocolError(`HTTP transport request refused with "${status}"`);
      }
      await writeAll(conn, buildHead("HTTP/1.1 200 OK", [["Cache-Control", "no-store"], ...extra]));
      try {
        await onStream(conn);
      } finally {
        conn.close();
      }
    },
  };
}
