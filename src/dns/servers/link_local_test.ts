import assert from "node:assert/strict";
import { HostsTransport } from "./hosts.ts";
import { isLinkLocalName } from "./link_local.ts";
import { LocalTransport } from "./local.ts";

Deno.test("link-local names and what hosts and local servers answer by themselves", async () => {
  assert.ok(isLinkLocalName("printer.local."));
  assert.ok(isLinkLocalName("1.0.254.169.in-addr.arpa"));
  assert.ok(!isLinkLocalName("local.example.com"));
  const file = await Deno.makeTempFile();
  await Deno.writeTextFile(file, "10.1.1.1 nas.home\n");
  const hosts = new HostsTransport("h", [file], { "Printer.Lan": ["10.0.0.9"] });
  assert.ok(hosts.owns("printer.lan."));
  assert.ok(hosts.owns("NAS.home"));
  assert.ok(!hosts.owns("other.home"));
  await Deno.writeTextFile(file, "10.1.1.2 tv.home\n");
  // A changed file is re-read (mtime resolution can be coarse: touch it into the future).
  await Deno.utime(file, new Date(), new Date(Date.now() + 5000));
  assert.ok(hosts.owns("tv.home"));
  const local = new LocalTransport("l");
  assert.ok(local.owns("anything.local"));
  assert.ok(local.owns("localhost"), "from /etc/hosts");
  assert.ok(!local.owns("example.com"));
  hosts.close();
  local.close();
  await Deno.remove(file);
});
