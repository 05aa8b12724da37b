/**
 * Byte fixtures from the published formats (RFC 6455 examples, RFC 7541 C.4.1, the gun message
 * layout) and fuzzing of every decoder: random, truncated and mutated bytes must end in a
 * ProtocolError or a clean end, never a hang or another error.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Conn } from "../adapter/mod.ts";
import { ProtocolError } from "../common/errors.ts";
import { encodeGunMessage, parseHunk } from "./grpc/wire.ts";
import { GunConn } from "./grpc/conn.ts";
import * as F from "./h2/frame.ts";
import { HpackCodec } from "./h2/hpack.ts";
import { H2Session } from "./h2/session.ts";
import { decodeBase64Lenient, encodeBase64Url } from "./ws/base64.ts";
import { WsConn } from "./ws/conn.ts";
import { encodeFrame, OP_BINARY, OP_TEXT, parseFrameHeader } from "./ws/frame.ts";
import { acceptFor } from "./ws/handshake.ts";

const hex = (s: string) => new Uint8Array(s.replace(/\s/g, "").match(/../g)!.map((h) => parseInt(h, 16)));

/** A Conn that reads `input` in small pieces and discards writes. */
function scripted(input: Uint8Array, piece = 7): Conn & { writes: number } {
  let off = 0;
  return {
    writes: 0,
    read(p) {
      if (off >= input.length) return Promise.resolve(null);
      const n = Math.min(piece, p.length, input.length - off);
      p.set(input.subarray(off, off + n));
      off += n;
      return Promise.resolve(n);
    },
    write(p) {
      this.writes++;
      return Promise.resolve(p.length);
    },
    closeWrite: () => Promise.resolve(),
    close() {},
  };
}

async function drain(c: Conn): Promise<Uint8Array> {
  const parts: number[] = [];
  const b = new Uint8Array(1000);
  for (let n = await c.read(b); n !== null; n = await c.read(b)) parts.push(...b.subarray(0, n));
  return new Uint8Array(parts);
}

Deno.test("ws: RFC 6455 5.7 frames and the 4.2.2 accept value", async () => {
  const masked = hex("818537fa213d7f9f4d5158");
  const h = parseFrameHeader(masked)!;
  assertEquals([h.fin, h.opcode, h.length, h.size], [true, OP_TEXT, 5, 6]);
  assertEquals(encodeFrame(OP_TEXT, new TextEncoder().encode("Hello"), hex("37fa213d")), masked);
  assertEquals(encodeFrame(OP_BINARY, new Uint8Array(256)).subarray(0, 4), hex("827e0100"));
  assertEquals(encodeFrame(OP_BINARY, new Uint8Array(65536)).subarray(0, 10), hex("827f0000000000010000"));
  assertEquals(await acceptFor("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  // The server side unmasks; fragments (text + continuation) and a ping in between read as one stream.
  const stream = new Uint8Array([
    ...hex("018337fa213d"),
    0x48 ^ 0x37,
    0x65 ^ 0xfa,
    0x6c ^ 0x21, // text "Hel", not FIN
    ...hex("898000000000"), // ping, empty, masked
    ...hex("808201020304"),
    0x6c ^ 0x01,
    0x6f ^ 0x02, // continuation "lo", FIN
  ]);
  const conn = scripted(stream, 3);
  assertEquals(new TextDecoder().decode(await drain(new WsConn(conn, false))), "Hello");
  assertEquals(conn.writes, 1); // the pong
});

Deno.test("ws: early data base64url (sing-box/Xray) and lenient decoding", () => {
  const b = new Uint8Array([0xfb, 0xff, 0xbf, 1]);
  assertEquals(encodeBase64Url(b), "-_-_AQ");
  assertEquals(decodeBase64Lenient("-_-_AQ"), b);
  assertEquals(decodeBase64Lenient("+/+/AQ=="), b);
  let threw = false;
  try {
    decodeBase64Lenient("a?b");
  } catch (e) {
    threw = e instanceof ProtocolError;
  }
  assertEquals(threw, true);
});

Deno.test("gun: Hunk message layout and MultiHunk decoding", () => {
  assertEquals(encodeGunMessage(new TextEncoder().encode("hello")), hex("0000000007 0a05 68656c6c6f"));
  const big = encodeGunMessage(new Uint8Array(300));
  assertEquals(big.subarray(0, 8), hex("000000012f 0aac02"));
  // MultiHunk { repeated bytes data = 1 } plus an unknown varint field 2.
  assertEquals(parseHunk(hex("0a0161 0a026263 1005")).map((x) => new TextDecoder().decode(x)), ["a", "bc"]);
});

Deno.test("hpack: RFC 7541 C.4.1 request decodes", () => {
  const h = new HpackCodec().decode(hex("828684418cf1e3c2e5f23a6ba0ab90f4ff"));
  assertEquals(h, [[":method", "GET"], [":scheme", "http"], [":path", "/"], [
    ":authority",
    "www.example.com",
  ]]);
});

function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

function mutate(b: Uint8Array, r: () => number): Uint8Array {
  const out = b.slice(0, Math.floor(r() * (b.length + 1)));
  for (let i = 0; i < 3; i++) if (out.length) out[Math.floor(r() * out.length)] = Math.floor(r() * 256);
  return out;
}

async function mustEndCleanly(f: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise((_, no) => (timer = setTimeout(() => no(new Error("decoder hung")), 2000)));
  try {
    await Promise.race([f(), timeout]);
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("fuzz: ws, gun and HTTP/2 decoders end with ProtocolError or EOF, never hang", async () => {
  const r = rng(42);
  const wsGood = encodeFrame(OP_BINARY, new Uint8Array(300).fill(7), hex("01020304"));
  const gunGood = encodeGunMessage(new Uint8Array(100).fill(1));
  const h2Good = new Uint8Array([
    ...F.PREFACE,
    ...F.encodeSettings([[F.SETTINGS_INITIAL_WINDOW_SIZE, 100000]]),
    ...F.encodeFrame(F.HEADERS, F.FLAG_END_HEADERS, 1, hex("838684418cf1e3c2e5f23a6ba0ab90f4ff")),
    ...F.encodeFrame(F.DATA, F.FLAG_END_STREAM, 1, new Uint8Array(10)),
  ]);
  for (let i = 0; i < 300; i++) {
    const random = crypto.getRandomValues(new Uint8Array(Math.floor(r() * 200)));
    for (const input of [random, mutate(wsGood, r)]) {
      await mustEndCleanly(() => drain(new WsConn(scripted(input, 1 + Math.floor(r() * 50)), false)));
    }
    for (const input of [random, mutate(gunGood, r)]) {
      // A fake stream: GunConn only reads and checks trailers.
      const s = scripted(input) as unknown as ConstructorParameters<typeof GunConn>[0];
      await mustEndCleanly(() => drain(new GunConn(s)));
    }
    for (const input of [random, mutate(h2Good, r)]) {
      await mustEndCleanly(async () => {
        const streams: Conn[] = [];
        const session = new H2Session(scripted(input), { client: false, onRequest: (s) => streams.push(s) });
        await session.done;
        for (const s of streams) await drain(s);
      });
    }
  }
});
