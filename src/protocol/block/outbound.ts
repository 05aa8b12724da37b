/** The `block` outbound: refuses every connection (legacy; the `reject` rule action is preferred). */
import type { Network, Outbound } from "../../adapter/mod.ts";
import { DialError } from "../../common/errors.ts";

export class BlockOutbound implements Outbound {
  readonly type = "block";
  readonly networks: readonly Network[] = ["tcp", "udp"];
  readonly dependencies: readonly string[] = [];
  constructor(readonly tag: string) {}

  dial(): Promise<never> {
    return Promise.reject(new DialError(`Blocked by outbound "${this.tag}"`));
  }

  listenPacket(): Promise<never> {
    return Promise.reject(new DialError(`Blocked by outbound "${this.tag}"`));
  }
}
