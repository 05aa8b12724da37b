import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffRdp } from "./rdp.ts";
import { fixture, fromHex } from "./test_util.ts";
import { NEED_MORE, NONE } from "./types.ts";

const RDP = { kind: "found", result: { protocol: "rdp" } };

Deno.test("rdp: the Connection Requests of xfreerdp and rdesktop", () => {
  for (const name of ["rdp_xfreerdp.bin", "rdp_rdesktop.bin"]) {
    const data = fixture(name);
    deepStrictEqual(sniffRdp(data), RDP, name);
    for (let n = 0; n < data.length; n++) equal(sniffRdp(data.subarray(0, n)), NEED_MORE, `${name} at ${n}`);
  }
});

Deno.test("rdp: the 19-byte request without a cookie ([MS-RDPBCGR] 4.1.1)", () => {
  deepStrictEqual(sniffRdp(fromHex("030000130ee000000000000100080003000000")), RDP);
});

Deno.test("rdp: other TPKT and bytes", () => {
  equal(sniffRdp(fromHex("030000130ee000000000000200080003000000")), NONE); // not RDP_NEG_REQ
  equal(sniffRdp(fromHex("030000130fe000000000000100080003000000")), NONE); // wrong length indicator
  equal(sniffRdp(fromHex("030000130ed000000000000100080003000000")), NONE); // not a CR TPDU
  equal(sniffRdp(fromHex("0300000b06e00000000000")), NONE); // bare CR (ISO transport, not RDP)
  equal(sniffRdp(fromHex("0301")), NONE);
  equal(sniffRdp(fromHex("0300ffff")), NONE);
  equal(sniffRdp(fromHex("16030100")), NONE);
});
