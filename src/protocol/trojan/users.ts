/** The trojan inbound's users: one table keyed by hex(SHA224(password)), swapped whole on reload. */
import { ConfigError } from "../../common/errors.ts";
import { TrojanUser } from "../../config/model/protocols/trojan.ts";
import { passwordKey } from "./wire.ts";

export interface TrojanUserEntry {
  name?: string;
  password: string;
}

export class TrojanUsers {
  private byKey = new Map<string, TrojanUserEntry>();
  private list: readonly TrojanUserEntry[] = [];

  constructor(users: readonly unknown[] = [], path = "/users") {
    this.replace(users, path);
  }

  /** Validates every entry first: a bad list throws and leaves the table as it was. */
  replace(users: readonly unknown[], path = "/users"): void {
    const parsed: TrojanUserEntry[] = users.map((u, i) => {
      const r = TrojanUser.safeParse(u);
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new ConfigError(`${path}/${[i, ...issue.path].join("/")}`, issue.message);
      }
      return r.data;
    });
    const byKey = new Map<string, TrojanUserEntry>();
    parsed.forEach((u) => byKey.set(passwordKey(u.password), u));
    this.byKey = byKey;
    this.list = parsed;
  }

  get size(): number {
    return this.byKey.size;
  }

  lookup(key: string): TrojanUserEntry | undefined {
    return this.byKey.get(key);
  }

  current(): readonly TrojanUserEntry[] {
    return this.list;
  }
}
