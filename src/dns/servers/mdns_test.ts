/**
 * The mdns transport: its pure parts, and a real query to avahi-daemon in a network namespace made
 * here (lo with multicast and a 224.0.0.0/4 route), run by a small script inside the namespace.
 */
import assert from "node:assert/strict";
import { DnsError } from "../../common/errors.ts";
import { mdnsAnswer, mdnsQuery, mdnsSources, MdnsTransport } from "./mdns.ts";
import { decodeMessage, encodeMessage, messageId } from "./packet.ts";
import { addresses, query } from "./testing.ts";

Deno.test("mdns transport owns .local and the link-local reverse zones (preferred_by)", () => {
  const t = new MdnsTransport("m", []);
  for (
    const n of ["printer.local", "a.b.local.", "LOCAL", "4.3.254.169.in-addr.arpa", "1.0.8.e.f.ip6.arpa"]
  ) {
    assert.ok(t.owns(n), n);
  }
  for (
    const n of ["example.com", "local.example", "1.0.0.127.in-addr.arpa", "1.0.c.e.f.ip6.arpa", "notlocal"]
  ) {
    assert.ok(!t.owns(n), n);
  }
});

Deno.test("mdnsQuery keeps the id and question, clears flags and sets the QU bit", () => {
  const q = query("host.local", "AAAA", 0xbeef);
  const m = mdnsQuery(q);
  assert.equal(messageId(m), 0xbeef);
  assert.equal(m[2] | m[3], 0); // no RD
  assert.deepEqual([...m.subarray(4, 12)], [0, 1, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual([...m.subarray(m.length - 4)], [0x00, 28, 0x80, 0x01]);
  assert.equal(decodeMessage(m).questions?.[0].name, "host.local");
  assert.throws(() => mdnsQuery(new Uint8Array(12)), DnsError);
});

Deno.test("mdnsAnswer keeps answers for the question and rebuilds the response", () => {
  const q = query("host.local", "A", 0x1111);
  const response = encodeMessage({
    id: 0,
    type: "response",
    flags: 0x0400,
    answers: [
      { name: "other.local", type: "A", ttl: 120, data: "10.0.0.9" },
      { name: "HOST.local", type: "A", ttl: 120, data: "169.254.1.2", flush: true } as never,
      { name: "host.local", type: "AAAA", ttl: 120, data: "fe80::1" },
    ],
  });
  const a = mdnsAnswer(q, response)!;
  assert.equal(messageId(a), 0x1111);
  assert.deepEqual(addresses(a), ["169.254.1.2"]);
  assert.equal(decodeMessage(a).questions?.[0].name, "host.local");
  assert.equal(mdnsAnswer(q, encodeMessage({ id: 0, type: "response", answers: [] })), undefined);
  assert.equal(mdnsAnswer(q, q), undefined); // a query (our own, looped back) is no answer
  assert.equal(mdnsAnswer(q, new Uint8Array([1, 2, 3])), undefined);
});

Deno.test("mdnsSources picks IPv4 and scoped IPv6 link-local addresses of the wanted interfaces", () => {
  const info = (name: string, family: "IPv4" | "IPv6", address: string, scopeid: number | null = null) =>
    ({ name, family, address, netmask: "", scopeid, cidr: "", mac: "" }) as Deno.NetworkInterfaceInfo;
  const list = [
    info("lo", "IPv4", "127.0.0.1"),
    info("eth0", "IPv4", "192.168.1.5"),
    info("eth0", "IPv6", "fe80::5", 2),
    info("eth0", "IPv6", "2001:db8::5", 0),
    info("wg0", "IPv4", "10.9.0.1"),
  ];
  const multicast = (n: string) => n === "eth0";
  assert.deepEqual(mdnsSources(list, [], multicast).map((s) => s.address), ["192.168.1.5", "fe80::5%2"]);
  assert.deepEqual(mdnsSources(list, ["lo", "wg0"], multicast).map((s) => s.address), [
    "127.0.0.1",
    "10.9.0.1",
  ]);
});

Deno.test("mdns transport refuses other names and reports a missing interface", async () => {
  const t = new MdnsTransport("m", ["nonexistent0"]);
  await assert.rejects(t.exchange(query("example.com"), AbortSignal.timeout(1000)), /not a \.local name/);
  await assert.rejects(t.exchange(query("a.local"), AbortSignal.timeout(1000)), /no multicast interface/);
  t.close();
});

async function sh(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

function which(name: string): string | undefined {
  for (const dir of ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]) {
    try {
      Deno.statSync(`${dir}/${name}`);
      return `${dir}/${name}`;
    } catch { /* next */ }
  }
  return undefined;
}

const root = new URL("../../../", import.meta.url).pathname;

Deno.test("mdns transport resolves a name avahi-daemon publishes, inside a network namespace", async () => {
  const avahi = which("avahi-daemon");
  if (!avahi) throw new Error("avahi-daemon is missing: run scripts/test_deps");
  if (Deno.uid() !== 0) throw new Error("this test makes a network namespace and needs root");
  const ns = `svc-mdns-${crypto.randomUUID().slice(0, 8)}`;
  const dir = await Deno.makeTempDir({ prefix: "svc-mdns-" });
  let daemon: Deno.ChildProcess | undefined;
  try {
    await sh("ip", ["netns", "add", ns]);
    await sh("ip", ["-n", ns, "link", "set", "lo", "up"]);
    await sh("ip", ["-n", ns, "link", "set", "lo", "multicast", "on"]);
    await sh("ip", ["-n", ns, "route", "add", "224.0.0.0/4", "dev", "lo"]);
    await Deno.writeTextFile(
      `${dir}/avahi.conf`,
      "[server]\nhost-name=svcmdnstest\ndomain-name=local\nuse-ipv4=yes\nuse-ipv6=no\nallow-interfaces=lo\n" +
        "enable-dbus=no\n[publish]\npublish-addresses=yes\npublish-workstation=no\n",
    );
    // `ip netns exec` runs in its own mount namespace: a private /run/avahi-daemon keeps the pid
    // file (and the "already running" check) apart from any other avahi-daemon.
    daemon = new Deno.Command("ip", {
      args: [
        "netns",
        "exec",
        ns,
        "sh",
        "-c",
        `mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon && exec ${avahi} -f ${dir}/avahi.conf --no-drop-root --no-chroot --no-rlimits --no-proc-title`,
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // Wait for "Server startup complete" on its log.
    const log = daemon.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const deadline = Date.now() + 5000;
    while (!text.includes("Server startup complete")) {
      const { value, done } = await Promise.race([
        log.read(),
        new Promise<{ value: undefined; done: true }>((r) =>
          setTimeout(() => r({ value: undefined, done: true }), Math.max(0, deadline - Date.now()))
        ),
      ]);
      if (done) throw new Error(`avahi-daemon did not start: ${text}`);
      text += value;
    }
    (async () => {
      try {
        while (!(await log.read()).done) { /* drain */ }
      } catch { /* gone */ }
    })();
    const probe = `${dir}/probe.ts`;
    await Deno.writeTextFile(
      probe,
      `import { MdnsTransport } from ${JSON.stringify(new URL("./mdns.ts", import.meta.url).href)};
import { addresses, query } from ${JSON.stringify(new URL("./testing.ts", import.meta.url).href)};
const out: Record<string, unknown> = {};
for (const [k, ifs] of [["lo", ["lo"]], ["all", []]] as const) {
  const t = new MdnsTransport("m", ifs);
  const r = await t.exchange(query("svcmdnstest.local", "A", 0x2468), AbortSignal.timeout(4000));
  out[k] = { id: (r[0] << 8) | r[1], addresses: addresses(r) };
  t.close();
}
console.log(JSON.stringify(out));
`,
    );
    const run = await new Deno.Command("ip", {
      args: ["netns", "exec", ns, `${root}scripts/deno`, "run", "-A", "--config", `${root}deno.json`, probe],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(run.stdout);
    assert.ok(run.success, `probe failed: ${new TextDecoder().decode(run.stderr)}`);
    const got = JSON.parse(stdout.trim().split("\n").pop()!);
    assert.deepEqual(got.lo, { id: 0x2468, addresses: ["127.0.0.1"] });
    assert.deepEqual(got.all, { id: 0x2468, addresses: ["127.0.0.1"] });
  } finally {
    if (daemon) {
      try {
        daemon.kill("SIGTERM");
      } catch { /* gone */ }
      await daemon.status;
    }
    await sh("ip", ["netns", "del", ns]).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
