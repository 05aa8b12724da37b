/**
 * An inbound that is one TCP listener serving a protocol per accepted stream (socks, http,
 * mixed): start, address and close in one place. Without `listen_port` it opens nothing.
 */
import type { Address, Conn, Inbound, LayeredServer, ServerLayers, StreamInfo } from "../adapter/mod.ts";
import type { Logger } from "../common/log.ts";
import { serveTcp } from "./tcp_server.ts";

export type StreamServe = (conn: Conn, source: Address, local: Address, info: StreamInfo) => Promise<void>;

export class StreamInbound implements Inbound {
  private server?: LayeredServer;

  constructor(
    readonly type: string,
    readonly tag: string,
    private readonly listen: { listen: string; listen_port?: number },
    private readonly logger: Logger,
    private readonly serve: StreamServe,
    /** TLS and transport in front of the protocol; plain TCP when absent. */
    private readonly layers?: ServerLayers,
  ) {}

  /** Where it listens once started (tests and the APIs read it). */
  get address(): Deno.NetAddr | undefined {
    return this.server?.addr;
  }

  start(): Promise<void> {
    const { listen, listen_port } = this.listen;
    if (listen_port === undefined) return Promise.resolve();
    this.server = this.layers && !this.layers.empty
      ? this.layers.listen(listen, listen_port, this.serve)
      : serveTcp(listen, listen_port, this.logger, (conn, remote, local) =>
        this.serve(
          conn,
          { host: remote.hostname, port: remote.port },
          { host: local.hostname, port: local.port },
          {},
        ));
    this.logger.info(`listening on ${listen}:${this.server.addr.port}`);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}
