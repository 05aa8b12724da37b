/** Inbounds, outbounds and the router: the runtime's core contracts (see shared/DESIGN.md). */
import type { Conn, PacketConn } from "./conn.ts";
import type { Address, Metadata, Network } from "./metadata.ts";

export interface Inbound {
  readonly type: string;
  readonly tag: string;
  /** Opens listeners; resolves once they accept. */
  start(): Promise<void>;
  /** Stops accepting and closes what it owns. */
  close(): Promise<void>;
}

/**
 * An inbound whose users live in one per-inbound table that can be swapped while it serves
 * (the management API changes users this way). Each entry is the inbound type's own user object,
 * as written in the configuration; a bad list throws and leaves the old one in place.
 */
export interface UsersReloadable {
  replaceUsers(users: readonly unknown[]): void;
  /** The users in effect, as given. */
  currentUsers(): readonly unknown[];
}

export function isUsersReloadable(i: Inbound): i is Inbound & UsersReloadable {
  return typeof (i as Partial<UsersReloadable>).replaceUsers === "function";
}

export interface Outbound {
  readonly type: string;
  readonly tag: string;
  /** Networks this outbound can carry. */
  readonly networks: readonly Network[];
  /** Tags this outbound needs started first (detours, group members). */
  readonly dependencies: readonly string[];
  /** Opens a stream to `destination`. */
  dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn>;
  /** Opens a packet session; packets carry their own destinations. */
  listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn>;
  start?(): Promise<void>;
  close?(): Promise<void>;
}

/** Where inbounds hand connections: the router decides, dials and relays. */
export interface ConnectionHandler {
  /** Takes ownership of `conn`; resolves when the connection has ended. */
  routeConnection(conn: Conn, metadata: Metadata): Promise<void>;
  /**
   * Takes ownership of a UDP session from one client. Resolves when it ends.
   */
  routePacketConnection(conn: PacketConn, metadata: Metadata): Promise<void>;
  /**
   * Routes and dials without relaying, for inbounds that frame traffic themselves (HTTP
   * forwarding). `initial` is what the client sent, for sniffing. The returned Conn is tracked:
   * its bytes are counted and closing it ends the tracked connection. Null when a rule rejected it.
   */
  dialConnection(metadata: Metadata, initial?: Uint8Array): Promise<Conn | null>;
}

/** What a protocol's outbound uses to reach its server: the net dialer or another outbound (detour). */
export interface Dialer {
  dial(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<Conn>;
  listenPacket(destination: Address, metadata: Metadata, signal?: AbortSignal): Promise<PacketConn>;
}
