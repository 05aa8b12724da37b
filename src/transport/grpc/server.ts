/**
 * The grpc transport server: an HTTP/2 server (h2 by ALPN, or prior knowledge) whose streams to
 * `/<service_name>/Tun` become gun tunnels. As sing-box: another path gets 404, another method
 * 405, a non-gRPC content type 415. The tunnel ends with trailers `grpc-status: 0`.
 */
import type { Conn } from "../../adapter/mod.ts";
import type { TransportModel } from "../../config/mod.ts";
import { closeAfter, HANDSHAKE_TIMEOUT_MS } from "../../net/deadline.ts";
import { H2Session } from "../h2/session.ts";
import type { H2Stream } from "../h2/stream.ts";
import type { TransportServer } from "../types.ts";
import { grpcPath } from "./client.ts";
import { GunConn } from "./conn.ts";

type GrpcModel = Extract<TransportModel, { type: "grpc" }>;

export function grpcServer(m: GrpcModel): TransportServer {
  const path = grpcPath(m.service_name);
  return {
    alpn: ["h2"],
    async serve(conn: Conn, onStream: (s: Conn) => Promise<void>): Promise<void> {
      // A client that never sends its preface is cut off like any stalled handshake.
      const timer = closeAfter(conn, HANDSHAKE_TIMEOUT_MS);
      const serveStream = async (session: H2Session, stream: H2Stream, h: [string, string][]) => {
        timer.clear();
        const get = (k: string) => h.find(([n]) => n === k)?.[1];
        const status = get(":path") !== path
          ? "404"
          : get(":method") !== "POST"
          ? "405"
          : !(get("content-type") ?? "").startsWith("application/grpc")
          ? "415"
          : "200";
        if (status !== "200") {
          await session.respond(stream, [[":status", status]], true).catch(() => {});
          stream.close();
          return;
        }
        await session.respond(stream, [[":status", "200"], ["content-type", "application/grpc"]]);
        stream.endTrailers = [["grpc-status", "0"], ["grpc-message", ""]];
        const gun = new GunConn(stream);
        try {
          await onStream(gun);
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
    },
  };
}
