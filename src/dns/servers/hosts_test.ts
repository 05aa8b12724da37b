import assert from "node:assert/strict";
import { HostsTransport, parseHostsFile } from "./hosts.ts";
import { decodeMessage, messageId, RCODE, rcodeOf } from "./packet.ts";
import { addresses, query } from "./testing.ts";

const signal = () => AbortSignal.timeout(2000);

Deno.test("parseHostsFile reads addresses, names and comments", () => {
  const m = parseHostsFile(
    "# c\n127.0.0.1 localhost Foo.lan # x\n::1 localhost\nbad line\n10.0.0.1\tfoo.lan\n",
  );
  assert.deepEqual(m.get("localhost"), ["127.0.0.1", "::1"]);
  assert.deepEqual(m.get("foo.lan"), ["127.0.0.1", "10.0.0.1"]);
  assert.equal(m.size, 2);
});

Deno.test("hosts: predefined and file entries by family; NXDOMAIN for other names and types", async () => {
  const dir = await Deno.makeTempDir({ prefix: "svc-hosts-" });
  try {
    const path = `${dir}/hosts`;
    await Deno.writeTextFile(path, "10.9.9.9 file.lan\n");
    const t = new HostsTransport("h", [path], {
      "Www.Example.com": ["1.2.3.4", "::5"],
      "v4.lan": ["1.1.1.1"],
    });
    const a = await t.exchange(query("www.example.com.", "A", 31), signal());
    assert.equal(messageId(a), 31);
    assert.deepEqual(addresses(a), ["1.2.3.4"]);
    assert.deepEqual(addresses(await t.exchange(query("www.example.com", "AAAA"), signal())), ["::5"]);
    const none = await t.exchange(query("v4.lan", "AAAA"), signal());
    assert.equal(rcodeOf(none), RCODE.NOERROR);
    assert.deepEqual(addresses(none), []);
    assert.deepEqual(addresses(await t.exchange(query("file.lan"), signal())), ["10.9.9.9"]);
    assert.equal(rcodeOf(await t.exchange(query("other.lan"), signal())), RCODE.NXDOMAIN);
    assert.equal(rcodeOf(await t.exchange(query("www.example.com", "TXT"), signal())), RCODE.NXDOMAIN);
    // The file is read again when it changes.
    await new Promise((r) => setTimeout(r, 20));
    await Deno.writeTextFile(path, "10.8.8.8 file.lan\n");
    await Deno.utime(path, new Date(), new Date(Date.now() + 5000));
    assert.deepEqual(addresses(await t.exchange(query("file.lan"), signal())), ["10.8.8.8"]);
    assert.equal(decodeMessage(a).questions![0].name, "www.example.com");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
