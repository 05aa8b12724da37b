/**
 * Listen fields Deno cannot honour on an inbound's sockets: errors naming the path when they
 * would change routing, warnings when they only tune the socket. Never silently ignored.
 */
import type { ListenFields } from "../config/mod.ts";
import { ConfigError } from "../common/errors.ts";

const NO_SOCKOPT = "not supported on this platform: Deno exposes no socket descriptor to set it on";

export function checkListenFields(
  f: Partial<ListenFields>,
  path: string,
  warn: (message: string) => void,
): void {
  const errors: ConfigError[] = [];
  if (f.bind_interface !== undefined) {
    errors.push(
      new ConfigError(`${path}/bind_interface`, `binding to an interface is ${NO_SOCKOPT} (SO_BINDTODEVICE)`),
    );
  }
  if (f.routing_mark !== undefined && f.routing_mark !== 0) {
    errors.push(new ConfigError(`${path}/routing_mark`, `a routing mark is ${NO_SOCKOPT} (SO_MARK)`));
  }
  if (f.detour !== undefined) {
    errors.push(
      new ConfigError(`${path}/detour`, "forwarding an inbound to another inbound is not supported yet"),
    );
  }
  if (errors.length) throw errors;
  // Socket tuning only: the connection is the same without it.
  for (const field of ["tcp_fast_open", "tcp_keep_alive", "tcp_keep_alive_interval"] as const) {
    if (f[field] !== undefined && f[field] !== false) {
      warn(`${path}/${field}: not available through Deno's listeners; the system default applies`);
    }
  }
}
