import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffSsh } from "./ssh.ts";
import { ascii, fixture } from "./test_util.ts";
import { NEED_MORE, NONE } from "./types.ts";

Deno.test("ssh: the OpenSSH client's banner gives the client", () => {
  const data = fixture("ssh_openssh.bin");
  const result = { kind: "found", result: { protocol: "ssh", client: "OpenSSH_9.2p1 Debian-2+deb12u6" } };
  deepStrictEqual(sniffSsh(data), result);
  for (let n = 0; n < data.length; n++) equal(sniffSsh(data.subarray(0, n)), NEED_MORE, `at ${n}`);
});

Deno.test("ssh: other banners and bytes", () => {
  deepStrictEqual(sniffSsh(ascii("SSH-2.0-Go\n")), {
    kind: "found",
    result: { protocol: "ssh", client: "Go" },
  });
  deepStrictEqual(sniffSsh(ascii("SSH-1.99-x\r\n")), {
    kind: "found",
    result: { protocol: "ssh", client: "x" },
  });
  equal(sniffSsh(ascii("SSH-1.5-old\r\n")), NONE);
  equal(sniffSsh(ascii("SSH-2.0-\r\n")), NONE);
  equal(sniffSsh(ascii("SSH-2.0-a\x01b\r\n")), NONE);
  equal(sniffSsh(ascii("SSH-2.0-" + "a".repeat(300))), NONE);
  equal(sniffSsh(ascii("GET / HTTP/1.1")), NONE);
});
