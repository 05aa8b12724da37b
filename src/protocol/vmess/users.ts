/**
 * The vmess inbound's users: one table, swapped whole on reload, and the auth-id replay filter.
 * The server finds the user by decrypting the 16-byte auth id with each user's key and checking
 * its CRC (as v2ray does), then checks its time (±120 s) and that it was not seen before.
 */
import { ConfigError } from "../../common/errors.ts";
import { VmessUser } from "../../config/model/protocols/vmess.ts";
import { authIdKey, openAuthId } from "./header.ts";
import { cmdKey, parseUuid } from "./kdf.ts";

export interface VmessUserEntry {
  name?: string;
  uuid: string;
  alterId?: number;
}

export interface VmessUserKeys {
  entry: VmessUserEntry;
  cmdKey: Uint8Array;
  idKey: Uint8Array;
}

/** How far an auth id's time may be from ours (v2ray and sing-box allow 120 s). */
export const AUTH_WINDOW_S = 120;

export class VmessUsers {
  private keys: VmessUserKeys[] = [];
  private list: readonly VmessUserEntry[] = [];

  constructor(users: readonly unknown[] = [], path = "/users") {
    this.replace(users, path);
  }

  /** Validates every entry first: a bad list throws and leaves the table as it was. */
  replace(users: readonly unknown[], path = "/users"): void {
    const parsed = users.map((u, i) => {
      const r = VmessUser.safeParse(u);
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new ConfigError(`${path}/${[i, ...issue.path].join("/")}`, issue.message);
      }
      if ((r.data.alterId ?? 0) > 0) {
        throw new ConfigError(
          `${path}/${i}/alterId`,
          `alterId ${r.data.alterId} (legacy MD5 authentication) is not supported: use 0 (AEAD)`,
        );
      }
      return r.data;
    });
    const keys = parsed.map((entry, i) => {
      const k = cmdKey(parseUuid(entry.uuid, `${path}/${i}/uuid`));
      return { entry, cmdKey: k, idKey: authIdKey(k) };
    });
    this.keys = keys;
    this.list = parsed;
  }

  current(): readonly VmessUserEntry[] {
    return this.list;
  }

  /** The user whose key opens `authId`, with the time inside it; undefined when none does. */
  match(authId: Uint8Array): { user: VmessUserKeys; time: number } | undefined {
    for (const user of this.keys) {
      const time = openAuthId(user.idKey, authId);
      if (time >= 0) return { user, time };
    }
    return undefined;
  }
}

/**
 * Auth ids seen in the last two windows. Two sets rotated every window keep memory proportional
 * to the connection rate; an id older than the window is refused by the time check anyway.
 */
export class ReplayFilter {
  private current = new Set<string>();
  private previous = new Set<string>();
  private rotatedAt = 0;

  constructor(private readonly windowS = AUTH_WINDOW_S * 2, private readonly maxEntries = 1_000_000) {}

  /** True when `id` is new (and remembers it); false on a replay or when the filter is full. */
  add(id: Uint8Array, nowS: number): boolean {
    if (nowS - this.rotatedAt >= this.windowS) {
      this.previous = nowS - this.rotatedAt >= 2 * this.windowS ? new Set() : this.current;
      this.current = new Set();
      this.rotatedAt = nowS;
    }
    let key = "";
    for (let i = 0; i < id.length; i++) key += String.fromCharCode(id[i]);
    if (this.current.has(key) || this.previous.has(key)) return false;
    if (this.current.size >= this.maxEntries) return false;
    this.current.add(key);
    return true;
  }
}
