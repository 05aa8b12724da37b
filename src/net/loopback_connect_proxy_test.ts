import assert from "node:assert/strict";
import { LoopbackConnectProxy } from "./loopback_connect_proxy.ts";

async function ask(url: string, head: string): Promise<string> {
  const { port } = new URL(url);
  const c = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
  await c.write(new TextEncoder().encode(head));
  const buf = new Uint8Array(256);
  const n = await c.read(buf);
  c.close();
  return new TextDecoder().decode(buf.subarray(0, n ?? 0));
}

Deno.test("loopback CONNECT proxy: wrong or missing credentials get 407; right ones reach the fixed target", async () => {
  const target = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const proxy = new LoopbackConnectProxy(() =>
    Deno.connect({ hostname: "127.0.0.1", port: (target.addr as Deno.NetAddr).port })
  );
  try {
    assert.match(await ask(proxy.url, "CONNECT x:443 HTTP/1.1\r\n\r\n"), /^HTTP\/1\.1 407/);
    assert.match(
      await ask(proxy.url, "CONNECT x:443 HTTP/1.1\r\nProxy-Authorization: Basic Zm9vOmJhcg==\r\n\r\n"),
      /^HTTP\/1\.1 407/,
    );
    const auth = btoa(`${proxy.basicAuth.username}:${proxy.basicAuth.password}`);
    const accepted = target.accept();
    assert.match(
      await ask(proxy.url, `CONNECT anything:1 HTTP/1.1\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`),
      /^HTTP\/1\.1 200/,
    );
    (await accepted).close();
  } finally {
    proxy.close();
    target.close();
  }
});
