/**
 * The ws transport server (sing-box `transport/v2raywebsocket`): accepts one WebSocket upgrade per
 * connection. Path check as sing-box: exact, except when early data travels in the path (header
 * name empty and `max_early_data` set), where the path is a prefix followed by base64url bytes.
 * Early data from the path or the header is handed to the stream before any frame.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { TransportModel } from "../../config/mod.ts";
import { writeAll } from "../../net/relay.ts";
import { BufferedConn } from "../../net/buffered_conn.ts";
import { buffered, buildHead, normalizePath, readHead } from "../http1.ts";
import type { TransportServer } from "../types.ts";
import { decodeBase64Lenient } from "./base64.ts";
import { WsConn } from "./conn.ts";
import { acceptFor } from "./handshake.ts";

type WsModel = Extract<TransportModel, { type: "ws" }>;

export function wsServer(m: WsModel): TransportServer {
  const path = normalizePath(m.path);
  const maxEarly = m.max_early_data ?? 0;
  const earlyHeader = (m.early_data_header_name ?? "").toLowerCase();
  const earlyInPath = maxEarly > 0 && earlyHeader === "";

  return {
    alpn: ["http/1.1"],
    async serve(raw: Conn, onStream: (s: Conn) => Promise<void>): Promise<void> {
      const conn = buffered(raw);
      const req = await readHead(conn);
      const [method, target] = req.start;
      const targetPath = target.split("?")[0];
      const refuse = async (status: string, why: string): Promise<never> => {
        await writeAll(
          conn,
          buildHead(`HTTP/1.1 ${status}`, [["Content-Length", "0"], ["Connection", "close"]]),
        )
          .catch(() => {});
        throw new ProtocolError(`WebSocket request refused: ${why}`);
      };
      let early: Uint8Array | undefined;
      if (earlyInPath) {
        if (!target.startsWith(path)) await refuse("404 Not Found", `bad path "${targetPath}"`);
        const rest = target.slice(path.length);
        try {
          early = rest ? decodeBase64Lenient(rest) : undefined;
        } catch {
          await refuse("400 Bad Request", "early data in the path is not base64");
        }
      } else {
        if (targetPath !== path) await refuse("404 Not Found", `bad path "${targetPath}"`);
        const value = earlyHeader ? req.headers.get(earlyHeader) : undefined;
        try {
          early = value ? decodeBase64Lenient(value) : undefined;
        } catch {
          await refuse("400 Bad Request", `early data in "${earlyHeader}" is not base64`);
        }
      }
      const key = req.headers.get("sec-websocket-key");
      if (method !== "GET" || !/websocket/i.test(req.headers.get("upgrade") ?? "") || !key) {
        await refuse("400 Bad Request", "not a WebSocket upgrade");
      }
      if (req.headers.get("sec-websocket-version") !== "13") {
        await writeAll(conn, buildHead("HTTP/1.1 426 Upgrade Required", [["Sec-WebSocket-Version", "13"]]))
          .catch(() => {});
        throw new ProtocolError("WebSocket request refused: version is not 13");
      }
      const headers: [string, string][] = [
        ["Upgrade", "websocket"],
        ["Connection", "Upgrade"],
        ["Sec-WebSocket-Accept", await acceptFor(key!)],
      ];
      // Browsers (and Xray's early data in this header) need the protocol echoed.
      const proto = req.headers.get("sec-websocket-protocol");
      if (proto && earlyHeader === "sec-websocket-protocol") headers.push(["Sec-WebSocket-Protocol", proto]);
      await writeAll(conn, buildHead("HTTP/1.1 101 Switching Protocols", headers));
      const ws = new WsConn(conn, false);
      const stream: Conn = early?.length ? new BufferedConn(ws, early, early.length) : ws;
      try {
        await onStream(stream);
      } finally {
        stream.close();
      }
    },
  };
}
