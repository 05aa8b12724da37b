/**
 * An HTTP origin serving one fixed random body (`/blob`) plus `/hello`, for downloads checked
 * byte for byte, and a helper that runs curl into memory and compares.
 */
import { curl } from "./engine.ts";

export interface BlobOrigin extends AsyncDisposable {
  port: number;
  body: Uint8Array;
  url(path?: string): string;
  /** Requests served, by path. */
  served(path: string): number;
}

export function blobOrigin(size = 4 * 1024 * 1024, hostname = "127.0.0.1"): BlobOrigin {
  const body = new Uint8Array(size);
  for (let off = 0; off < size; off += 65536) crypto.getRandomValues(body.subarray(off, off + 65536));
  const counts = new Map<string, number>();
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname,
    port: 0,
    onListen: () => {},
    handler: (req) => {
      const path = new URL(req.url).pathname;
      counts.set(path, (counts.get(path) ?? 0) + 1);
      if (path === "/blob") {
        return new Response(body, { headers: { "content-type": "application/octet-stream" } });
      }
      if (path === "/hello") return new Response(`hello from ${hostname}:${server.addr.port}\n`);
      return new Response("not found\n", { status: 404 });
    },
  });
  return {
    port: server.addr.port,
    body,
    url: (path = "/blob") => `http://${hostname}:${server.addr.port}${path}`,
    served: (path) => counts.get(path) ?? 0,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** Downloads `url` with curl (extra args first) and fails unless the body equals `expected`. */
export async function curlBytes(args: string[], url: string, expected: Uint8Array): Promise<void> {
  const file = await Deno.makeTempFile({ prefix: "svc-curl-" });
  try {
    const r = await curl([...args, "--max-time", "30", "-o", file, url]);
    if (r.code !== 0) throw new Error(`curl ${args.join(" ")} ${url} failed (${r.code}): ${r.stderr}`);
    const got = await Deno.readFile(file);
    if (got.length !== expected.length) {
      throw new Error(`Downloaded ${got.length} bytes, expected ${expected.length}`);
    }
    for (let i = 0; i < got.length; i++) {
      if (got[i] !== expected[i]) throw new Error(`Download differs at byte ${i}`);
    }
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
