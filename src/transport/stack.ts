/**
 * Composes TLS and a transport into the ClientLayers/ServerLayers protocols receive (see
 * adapter/layers.ts). Order on the wire: TCP, then TLS, then the transport, then the protocol.
 */
import type {
  ClientLayerOptions,
  ClientLayers,
  Conn,
  LayeredServer,
  LayerOptions,
  ServerLayers,
  StreamHandler,
} from "../adapter/mod.ts";
import type { Logger } from "../common/log.ts";
import type { InboundTlsModel, OutboundTlsModel, TransportModel } from "../config/mod.ts";
import { serveTcp } from "../net/tcp_server.ts";
import { isTlsEnabled, tlsClientLayer, type TlsEnvironment, tlsServerLayer } from "../tls/layer.ts";
import { serveTls } from "../tls/server.ts";
import { transportClient, transportServer } from "./layer.ts";

export function buildClientLayers(o: ClientLayerOptions, env: TlsEnvironment): ClientLayers {
  const tls = isTlsEnabled(o.tls) ? tlsClientLayer(o.tls as OutboundTlsModel, env, o.path) : undefined;
  const transport = o.transport
    ? transportClient(o.transport as TransportModel, o.path, { server: o.server, tls: !!tls })
    : undefined;
  if (!tls && !transport) {
    return { empty: true, open: (dialRaw, signal) => dialRaw(signal), close() {} };
  }
  const host = o.server.host;
  const dialTls = async (dialRaw: (s?: AbortSignal) => Promise<Conn>, signal?: AbortSignal) => {
    const raw = await dialRaw(signal);
    if (!tls) return raw;
    try {
      return await tls.wrap(raw, host, transport?.alpn, signal);
    } catch (e) {
      raw.close();
      throw e;
    }
  };
  return {
    empty: false,
    open: (dialRaw, signal) =>
      transport ? transport.open((s) => dialTls(dialRaw, s), host, signal) : dialTls(dialRaw, signal),
    close: () => transport?.close(),
  };
}

export function buildServerLayers(
  o: LayerOptions & { path?: string },
  logger: Logger,
): ServerLayers {
  const tlsOn = isTlsEnabled(o.tls);
  const transport = o.transport
    ? transportServer(o.transport as TransportModel, o.path, { tls: tlsOn })
    : undefined;
  // A transport needs its ALPN (h2 for grpc/http) when the tls block names none, as sing-box does.
  const tlsModel = o.tls as InboundTlsModel;
  const tls = tlsOn
    ? tlsServerLayer(
      tlsModel.alpn?.length || !transport?.alpn ? tlsModel : { ...tlsModel, alpn: transport.alpn },
      o.path,
    )
    : undefined;
  return {
    empty: !tls && !transport,
    listen(hostname: string, port: number, handle: StreamHandler): LayeredServer {
      if (tls) {
        return serveTls(
          tls,
          hostname,
          port,
          logger,
          (conn, source, local, info) =>
            transport
              ? transport.serve(conn, (stream) => handle(stream, source, local, info))
              : handle(conn, source, local, info),
        );
      }
      return serveTcp(hostname, port, logger, (conn, remote, local) => {
        const source = { host: remote.hostname, port: remote.port };
        const here = { host: local.hostname, port: local.port };
        return transport
          ? transport.serve(conn, (stream) => handle(stream, source, here, {}))
          : handle(conn, source, here, {});
      });
    },
  };
}
