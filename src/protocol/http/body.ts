/** Copies one HTTP message body from a buffered source to a sink, by its framing. */
import type { Conn } from "../../adapter/mod.ts";
import { ProtocolError } from "../../common/errors.ts";
import type { BufferedConn } from "../../net/buffered_conn.ts";
import { writeAll } from "../../net/relay.ts";
import { type BodyFraming, decodeChunkSize } from "./wire.ts";

export async function copyBody(src: BufferedConn, dst: Conn, framing: BodyFraming): Promise<void> {
  switch (framing.kind) {
    case "none":
      return;
    case "length":
      return await copyN(src, dst, framing.length);
    case "until_close":
      return await copyUntilClose(src, dst);
    case "chunked":
      return await copyChunked(src, dst);
  }
}

async function copyUntilClose(src: BufferedConn, dst: Conn): Promise<void> {
  while (src.buffered().length > 0 || (await src.fill())) {
    const b = src.buffered();
    await writeAll(dst, b);
    src.consume(b.length);
  }
}

async function copyN(src: BufferedConn, dst: Conn, n: number): Promise<void> {
  while (n > 0) {
    if (src.buffered().length === 0 && !(await src.fill())) {
      throw new ProtocolError("Connection closed inside an HTTP body");
    }
    const b = src.buffered();
    const take = Math.min(b.length, n);
    await writeAll(dst, b.subarray(0, take));
    src.consume(take);
    n -= take;
  }
}

/** Passes chunked encoding through verbatim, parsing just enough to find the last chunk and trailers. */
async function copyChunked(src: BufferedConn, dst: Conn): Promise<void> {
  while (true) {
    const size = await nextLine(src, decodeChunkSize);
    await writeAll(dst, src.buffered().subarray(0, size.length));
    src.consume(size.length);
    if (size.size === 0) break;
    await copyN(src, dst, size.size + 2); // data and its CRLF
  }
  // Trailers end with an empty line.
  while (true) {
    const line = await nextLine(src, (b) => {
      const nl = b.indexOf(10);
      return nl < 0 ? undefined : { length: nl + 1 };
    });
    const text = src.buffered().subarray(0, line.length);
    await writeAll(dst, text);
    src.consume(line.length);
    if (line.length <= 2) return;
  }
}

async function nextLine<T>(src: BufferedConn, parse: (b: Uint8Array) => T | undefined): Promise<T> {
  while (true) {
    const got = parse(src.buffered());
    if (got) return got;
    if (!(await src.fill())) throw new ProtocolError("Connection closed inside a chunked HTTP body");
  }
}
