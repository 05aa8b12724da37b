import assert from "node:assert/strict";
import { DnsError } from "../../common/errors.ts";
import { LocalTransport } from "./local.ts";
import { messageId, RCODE, rcodeOf } from "./packet.ts";
import { addresses, query } from "./testing.ts";

Deno.test("local: localhost comes from the system resolver (hosts file)", async () => {
  const t = new LocalTransport("local");
  try {
    const r = await t.exchange(query("localhost", "A", 99), AbortSignal.timeout(3000));
    assert.equal(messageId(r), 99);
    assert.equal(rcodeOf(r), RCODE.NOERROR);
    assert.ok(addresses(r).includes("127.0.0.1"));
  } finally {
    t.close();
  }
});

Deno.test("local: an aborted query and a malformed query are DnsErrors", async () => {
  const t = new LocalTransport("local");
  try {
    const ctl = new AbortController();
    ctl.abort();
    await assert.rejects(t.exchange(query("localhost"), ctl.signal), DnsError);
    await assert.rejects(t.exchange(new Uint8Array([1, 2, 3]), AbortSignal.timeout(1000)), DnsError);
  } finally {
    t.close();
  }
});
