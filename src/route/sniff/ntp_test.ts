import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffNtp } from "./ntp.ts";
import { datagrams } from "./test_util.ts";
import { NONE } from "./types.ts";

Deno.test("ntp: the sntp client's request", () => {
  deepStrictEqual(sniffNtp(datagrams("ntp_ntpdig")), { kind: "found", result: { protocol: "ntp" } });
});

Deno.test("ntp: other modes, versions and sizes", () => {
  const p = datagrams("ntp_ntpdig")[0];
  const v3 = p.slice();
  v3[0] = 0x1b; // LI 0, version 3, mode 3
  deepStrictEqual(sniffNtp([v3]), { kind: "found", result: { protocol: "ntp" } });
  const server = p.slice();
  server[0] = 0x24; // mode 4
  equal(sniffNtp([server]), NONE);
  const v2 = p.slice();
  v2[0] = 0x13;
  equal(sniffNtp([v2]), NONE);
  const delay = p.slice();
  delay[4] = 0x01; // root delay of 256 s
  equal(sniffNtp([delay]), NONE);
  equal(sniffNtp([p.subarray(0, 47)]), NONE);
});
