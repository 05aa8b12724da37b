import assert from "node:assert/strict";
import { ConfigError } from "../common/errors.ts";
import { type FakeIpEntry, FakeIpPool, type FakeIpStore } from "./fakeip.ts";

class MemoryStore implements FakeIpStore {
  entries = new Map<string, string>();
  load(): FakeIpEntry[] {
    return [...this.entries].map(([address, name]) => ({ address, name }));
  }
  put(e: FakeIpEntry): void {
    this.entries.delete(e.address);
    this.entries.set(e.address, e.name);
  }
  delete(address: string): void {
    this.entries.delete(address);
  }
}

Deno.test("fakeip: names get addresses in order and map back", () => {
  const pool = new FakeIpPool({ inet4Range: "198.18.0.0/15", inet6Range: "fc00::/18" });
  assert.equal(pool.addressFor("a.test", 4), "198.18.0.1");
  assert.equal(pool.addressFor("B.test.", 4), "198.18.0.2");
  assert.equal(pool.addressFor("a.test", 4), "198.18.0.1");
  assert.equal(pool.addressFor("a.test", 6), "fc00::1");
  assert.equal(pool.nameOf("198.18.0.2"), "b.test");
  assert.equal(pool.nameOf("::ffff:198.18.0.2"), "b.test");
  assert.equal(pool.nameOf("fc00::1"), "a.test");
  assert.equal(pool.nameOf("198.18.0.9"), undefined);
  assert.ok(pool.contains("198.19.255.254"));
  assert.ok(!pool.contains("198.20.0.1"));
});

Deno.test("fakeip: a full range reuses the least recently used address", () => {
  const pool = new FakeIpPool({ inet4Range: "10.0.0.0/30" }); // usable .1 .2
  assert.equal(pool.addressFor("a", 4), "10.0.0.1");
  assert.equal(pool.addressFor("b", 4), "10.0.0.2");
  pool.addressFor("a", 4); // touch a
  assert.equal(pool.addressFor("c", 4), "10.0.0.2");
  assert.equal(pool.nameOf("10.0.0.2"), "c");
  assert.equal(pool.addressFor("b", 4), "10.0.0.1");
  assert.equal(pool.addressFor("v6", 6), undefined);
});

Deno.test("fakeip: the store restores mappings and the cursor", () => {
  const store = new MemoryStore();
  const first = new FakeIpPool({ inet4Range: "198.18.0.0/15", store });
  first.addressFor("a", 4);
  first.addressFor("b", 4);
  const second = new FakeIpPool({ inet4Range: "198.18.0.0/15", store });
  assert.equal(second.nameOf("198.18.0.2"), "b");
  assert.equal(second.addressFor("c", 4), "198.18.0.3");
  second.clear();
  assert.equal(store.entries.size, 0);
});

Deno.test("fakeip: bad ranges are config errors", () => {
  assert.throws(
    () => new FakeIpPool({ inet4Range: "fc00::/18" }, "/dns/servers/0"),
    (e) => e instanceof ConfigError && e.path === "/dns/servers/0/inet4_range",
  );
  assert.throws(() => new FakeIpPool({ inet6Range: "nope" }), ConfigError);
});
