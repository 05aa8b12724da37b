import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffStun } from "./stun.ts";
import { datagrams, fromHex } from "./test_util.ts";
import { NONE } from "./types.ts";

Deno.test("stun: turnutils_stunclient's Binding Request", () => {
  deepStrictEqual(sniffStun(datagrams("stun_turnutils")), { kind: "found", result: { protocol: "stun" } });
});

Deno.test("stun: a request with an attribute, and near misses", () => {
  // Binding Request with SOFTWARE "test" (RFC 5389 section 15.10).
  const req = fromHex("000100082112a442000102030405060708090a0b802200047465737400");
  deepStrictEqual(sniffStun([req.subarray(0, 28)]), { kind: "found", result: { protocol: "stun" } });
  equal(sniffStun([req.subarray(0, 27)]), NONE); // length runs past the datagram
  equal(sniffStun([fromHex("000100002112a443000102030405060708090a0b")]), NONE); // cookie
  equal(sniffStun([fromHex("c00100002112a442000102030405060708090a0b")]), NONE); // top bits
  equal(sniffStun([fromHex("000100022112a442000102030405060708090a0b0000")]), NONE); // length not 4n
});
