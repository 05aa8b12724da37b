/** The `shadowsocks` protocol: registers its inbound and outbound by type. */
import type { Registry } from "../../adapter/mod.ts";

export function register(_r: Registry): void {
  // Not built yet: the engine reports "not built into this binary" for this type.
}
