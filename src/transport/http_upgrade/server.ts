/**
 * The httpupgrade transport server (sing-box `transport/v2rayhttpupgrade`): checks host (when
 * configured), path and the upgrade headers, answers 101 with the configured headers, and hands
 * the raw connection (plus any bytes that came with the request) to the protocol.
 */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { TransportModel } from "../../config/mod.ts";
import { writeAll } from "../../net/relay.ts";
import { buffered, buildHead, headerPairs, normalizePath, readHead } from "../http1.ts";
import type { TransportServer } from "../types.ts";

type UpgradeModel = Extract<TransportModel, { type: "httpupgrade" }>;

export function httpUpgradeServer(m: UpgradeModel): TransportServer {
  const path = normalizePath(m.path);
  const extra = headerPairs(m.headers as Record<string, string | string[]>)
    .filter(([k]) => !["connection", "upgrade"].includes(k.toLowerCase()));
  const answer = buildHead("HTTP/1.1 101 Switching Protocols", [
    ["Connection", "upgrade"],
    ["Upgrade", "websocket"],
    ...extra,
  ]);
  return {
    alpn: ["http/1.1"],
    async serve(raw, onStream: (s: Conn) => Promise<void>) {
      const conn = buffered(raw);
      const req = await readHead(conn);
      const refuse = async (status: string, why: string): Promise<never> => {
        await writeAll(
          conn,
          buildHead(`HTTP/1.1 ${status}`, [["Content-Length", "0"], ["Connection", "close"]]),
        )
          .catch(() => {});
        throw new ProtocolError(`HTTP upgrade refused: ${why}`);
      };
      const [method, target] = req.start;
      const host = req.headers.get("host") ?? "";
      if (m.host && host !== m.host) await refuse("404 Not Found", `bad host "${host}"`);
      if (target.split("?")[0] !== path) await refuse("404 Not Found", `bad path "${target.split("?")[0]}"`);
      if (
        method !== "GET" || !/\bupgrade\b/i.test(req.headers.get("connection") ?? "") ||
        !/^websocket$/i.test(req.headers.get("upgrade") ?? "")
      ) {
        await refuse("400 Bad Request", "not an upgrade request");
      }
      await writeAll(conn, answer);
      try {
        await onStream(conn);
      } finally {
        conn.close();
      }
    },
  };
}
