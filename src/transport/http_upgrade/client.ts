/**
 * The httpupgrade transport client (sing-box `transport/v2rayhttpupgrade`): one HTTP/1.1 GET with
 * `Connection: Upgrade` and `Upgrade: websocket`, a 101 answer, then raw bytes both ways (no
 * WebSocket framing). Host: the `host` option, else a `Host` header, else the server's host:port.
 */
import type { Address } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { TransportModel } from "../../config/mod.ts";
import { writeAll } from "../../net/relay.ts";
import { authority, buffered, buildHead, headerPairs, normalizePath, readHead } from "../http1.ts";
import type { TransportClient } from "../types.ts";

type UpgradeModel = Extract<TransportModel, { type: "httpupgrade" }>;

export function httpUpgradeClient(m: UpgradeModel, server: Address): TransportClient {
  const path = normalizePath(m.path);
  const pairs = headerPairs(m.headers as Record<string, string | string[]>);
  const host = m.host || pairs.find(([k]) => k.toLowerCase() === "host")?.[1] ||
    authority(server.host, server.port);
  const rest = pairs.filter(([k]) => !["host", "connection", "upgrade"].includes(k.toLowerCase()));
  if (!rest.some(([k]) => k.toLowerCase() === "user-agent")) rest.push(["User-Agent", "Go-http-client/1.1"]);
  const head = buildHead(`GET ${path} HTTP/1.1`, [
    ["Host", host],
    ["Connection", "Upgrade"],
    ["Upgrade", "websocket"],
    ...rest,
  ]);
  return {
    alpn: ["http/1.1"],
    async open(dial, _host, signal) {
      const raw = await dial(signal);
      try {
        await writeAll(raw, head);
        const conn = buffered(raw);
        const res = await readHead(conn);
        if (
          res.start[1] !== "101" || !/^upgrade$/i.test(res.headers.get("connection") ?? "") ||
          !/^websocket$/i.test(res.headers.get("upgrade") ?? "")
        ) {
          throw new ProtocolError(`HTTP upgrade refused: HTTP ${res.start[1]} ${res.start[2]}`);
        }
        return conn;
      } catch (e) {
        raw.close();
        throw e;
      }
    },
    close() {},
  };
}
