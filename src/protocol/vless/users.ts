/** The vless inbound's users: one table keyed by UUID bytes, swapped whole on reload. */
import { ConfigError } from "../../common/errors.ts";
import { VlessUser } from "../../config/model/protocols/vless.ts";

export interface VlessUserEntry {
  name?: string;
  uuid: string;
  flow?: string;
}

export function parseUuid(text: string, path = ""): Uint8Array {
  const hex = text.replaceAll("-", "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex) || !/^[0-9a-fA-F-]{32,36}$/.test(text)) {
    throw new ConfigError(path, `Invalid UUID "${text}"`);
  }
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function key(uuid: Uint8Array): string {
  let s = "";
  for (const b of uuid) s += String.fromCharCode(b);
  return s;
}

export class VlessUsers {
  private byKey = new Map<string, VlessUserEntry>();
  private list: readonly VlessUserEntry[] = [];

  constructor(users: readonly unknown[] = [], path = "/users") {
    this.replace(users, path);
  }

  /** Validates every entry first: a bad list throws and leaves the table as it was. */
  replace(users: readonly unknown[], path = "/users"): void {
    const byKey = new Map<string, VlessUserEntry>();
    const parsed = users.map((u, i) => {
      const r = VlessUser.safeParse(u);
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new ConfigError(`${path}/${[i, ...issue.path].join("/")}`, issue.message);
      }
      if (r.data.flow) {
        throw new ConfigError(
          `${path}/${i}/flow`,
          `flow "${r.data.flow}" is not supported yet (xtls-rprx-vision comes with the advanced-TLS work)`,
        );
      }
      byKey.set(key(parseUuid(r.data.uuid, `${path}/${i}/uuid`)), r.data);
      return r.data;
    });
    this.byKey = byKey;
    this.list = parsed;
  }

  lookup(uuid: Uint8Array): VlessUserEntry | undefined {
    return this.byKey.get(key(uuid));
  }

  current(): readonly VlessUserEntry[] {
    return this.list;
  }
}
