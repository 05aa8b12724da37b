/**
 * The inbound's users as one immutable table, swapped whole when the management API replaces
 * them (UsersReloadable): connections in flight keep the table they started with.
 */
import type { Method } from "./method.ts";
import { decodePsk, passwordKeys } from "./method.ts";
import { pskHash } from "./kdf.ts";

export interface ServerUser {
  name?: string;
  /** SIP004: the EVP key of the password. SIP022: the user's PSK (or the server PSK alone). */
  key: Uint8Array;
}

export interface UserTable {
  readonly users: readonly ServerUser[];
  /** SIP022 multi-user: the server PSK that opens identity headers. */
  readonly serverKey?: Uint8Array;
  /** SIP022 multi-user: users by the first 16 bytes of BLAKE3(uPSK), as latin1 text. */
  readonly byHash: ReadonlyMap<string, ServerUser>;
  /** The configured list, as given. */
  readonly source: readonly { name?: string; password: string }[];
}

/**
 * Builds a table from `password` and `users`; throws with the offending user's index.
 * SIP004 with users: each user has its own password, `password` is unused.
 * SIP022 with users: `password` is the server PSK and each user's password is its PSK.
 */
export function buildUserTable(
  method: Method,
  password: string | undefined,
  users: readonly { name?: string; password: string }[] | undefined,
): UserTable {
  const source = users ?? [];
  if (method.kind === "none") return { users: [{ key: new Uint8Array(0) }], byHash: new Map(), source };
  if (!users || users.length === 0) {
    if (password === undefined) throw new Error(`password is required for method "${method.name}"`);
    const keys = passwordKeys(method, password);
    return { users: [{ key: keys[keys.length - 1] }], byHash: new Map(), source };
  }
  const list: ServerUser[] = users.map((u, i) => {
    try {
      return {
        name: u.name ?? String(i),
        key: method.kind === "2022" ? decodePsk(method, u.password) : passwordKeys(method, u.password)[0],
      };
    } catch (e) {
      throw new Error(`users[${i}]: ${(e as Error).message}`);
    }
  });
  if (method.kind === "aead") return { users: list, byHash: new Map(), source };
  if (method.aead === "chacha20-poly1305") {
    throw new Error(`method "${method.name}" has no identity headers, so it cannot serve several users`);
  }
  if (password === undefined) {
    throw new Error(`password (the server key) is required with users for "${method.name}"`);
  }
  const serverKey = decodePsk(method, password);
  const byHash = new Map(list.map((u) => [String.fromCharCode(...pskHash(u.key)), u]));
  return { users: list, serverKey, byHash, source };
}
