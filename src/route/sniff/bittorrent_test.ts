import { deepStrictEqual, equal } from "node:assert/strict";
import { sniffBitTorrentPacket, sniffBitTorrentStream } from "./bittorrent.ts";
import { ascii, datagrams, fixture, fromHex } from "./test_util.ts";
import { NEED_MORE, NONE } from "./types.ts";

const BT = { kind: "found", result: { protocol: "bittorrent" } };

Deno.test("bittorrent: libtorrent's peer handshake", () => {
  const data = fixture("bittorrent_libtorrent.bin");
  deepStrictEqual(sniffBitTorrentStream(data), BT);
  for (let n = 0; n < 20; n++) equal(sniffBitTorrentStream(data.subarray(0, n)), NEED_MORE, `at ${n}`);
  equal(sniffBitTorrentStream(ascii("\x13BitTorrent protocoL")), NONE);
  equal(sniffBitTorrentStream(ascii("\x12")), NONE);
});

Deno.test("bittorrent: libtorrent's uTP SYN, DHT queries and UDP tracker connect", () => {
  for (
    const name of ["bittorrent_utp_libtorrent", "bittorrent_dht_libtorrent", "bittorrent_tracker_libtorrent"]
  ) {
    for (const p of datagrams(name)) deepStrictEqual(sniffBitTorrentPacket([p]), BT, name);
  }
});

Deno.test("bittorrent: uTP and DHT built from BEP 29 and BEP 5", () => {
  // ST_SYN with a selective-ack extension (type 1, 4 bytes).
  deepStrictEqual(
    sniffBitTorrentPacket([
      fromHex("4101 1234 00000001 00000000 00100000 0001 0000 0004 01020304".replace(/ /g, "")),
    ]),
    BT,
  );
  deepStrictEqual(
    sniffBitTorrentPacket([ascii("d1:ad2:id20:abcdefghij0123456789e1:q4:ping1:t2:aa1:y1:qe")]),
    BT,
  );
  deepStrictEqual(sniffBitTorrentPacket([ascii("d1:rd2:id20:abcdefghij0123456789e1:t2:aa1:y1:re")]), BT);
  deepStrictEqual(sniffBitTorrentPacket([ascii("d1:eli201e23:A Generic Error Ocurrede1:t2:aa1:y1:ee")]), BT);
});

Deno.test("bittorrent: near misses are not BitTorrent", () => {
  equal(sniffBitTorrentPacket([]), NEED_MORE);
  equal(sniffBitTorrentPacket([fromHex("5100123400000001000000000010000000010000")]), NONE); // type 5
  equal(sniffBitTorrentPacket([fromHex("4201123400000001000000000010000000010000")]), NONE); // version 2
  equal(sniffBitTorrentPacket([fromHex("41011234000000010000000000100000000100000004")]), NONE); // ext overruns
  equal(sniffBitTorrentPacket([ascii("d1:ad2:id20:abcdefghij0123456789e1:q4:ping1:t2:aa1:y1:xe")]), NONE);
  equal(sniffBitTorrentPacket([ascii("d1:ad2:id20:abcdefghij0123456789e1:q4:ping1:y1:qe")]), NONE); // no t
  equal(sniffBitTorrentPacket([ascii("d1:t2:aa1:y1:qeXX")]), NONE); // trailing bytes
  equal(sniffBitTorrentPacket([ascii("d" + "l".repeat(40) + "e".repeat(41))]), NONE); // too deep
  equal(sniffBitTorrentPacket([ascii("d1:t2:aa1:y1:q")]), NONE); // unterminated
});
