/** Listen fields shared by network inbounds (sing-box `shared/listen.md`). */
import { z } from "zod";
import { port, routingMark } from "./common.ts";
import { duration } from "./duration.ts";

export const listenShape = {
  listen: z.string().default("127.0.0.1"),
  /** Without it the inbound opens no listener (useful only when composed by another inbound). */
  listen_port: port().optional(),
  bind_interface: z.string().optional(),
  routing_mark: routingMark().optional(),
  reuse_addr: z.boolean().optional(),
  /** Refused by the reference table (Linux network namespaces). */
  netns: z.string().optional(),
  tcp_fast_open: z.boolean().optional(),
  /** Dropped with a warning by the reference table. */
  tcp_multi_path: z.boolean().optional(),
  disable_tcp_keep_alive: z.boolean().optional(),
  tcp_keep_alive: duration().optional(),
  tcp_keep_alive_interval: duration().optional(),
  /** Dropped with a warning by the reference table. */
  udp_fragment: z.boolean().optional(),
  /** Milliseconds; 5 minutes by default. */
  udp_timeout: duration().default(300_000),
  /** Inbound tag connections are forwarded to. */
  detour: z.string().optional(),
};

const ListenObject = z.object(listenShape);
export type ListenFields = z.output<typeof ListenObject>;
