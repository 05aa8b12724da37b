/**
 * svc's TLS (OpenSSL engine) against real peers on loopback: the client layer against nginx
 * (TLS 1.2-only and 1.3-only servers) and `openssl s_server`: trust, wrong CA, insecure, pins,
 * version bounds, SNI, ALPN, cipher suites, client certificates, downloads checked byte for byte.
 * Then whole engines: an HTTPS-proxy `http` inbound used by curl, an `http` outbound to squid's
 * https_port, a `socks` outbound over TLS to stunnel in front of dante, and svc's own socks+TLS.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { curl, startEngine } from "../support/engine.ts";
import { inboundPort, origin, tempDir } from "../support/e2e.ts";
import { makeTestCertificates } from "../support/certs.ts";
import { startDante } from "../support/peers.ts";
import { startNginxTls, startSquidHttps, startSServer, startStunnel } from "../support/tls_peers.ts";
import { tlsClientLayer, tlsServerLayer } from "../../src/tls/layer.ts";
import type { OutboundTlsModel } from "../../src/config/mod.ts";

const FILE_SIZE = 3 * 1024 * 1024;

async function setup(dir: string): Promise<Uint8Array> {
  await makeTestCertificates(dir);
  await Deno.mkdir(`${dir}/www`);
  const data = new Uint8Array(FILE_SIZE);
  for (let i = 0; i < data.length; i += 65536) globalThis.crypto.getRandomValues(data.subarray(i, i + 65536));
  await Deno.writeFile(`${dir}/www/blob`, data);
  return data;
}

/** GET `path` over svc's TLS client; resolves to the body and the handshake's info. */
async function get(tls: Record<string, unknown>, port: number, path: string, name = "localhost") {
  const layer = tlsClientLayer({ enabled: true, ...tls } as OutboundTlsModel, {}, "/outbounds/0");
  const tcp = await Deno.connect({ hostname: "127.0.0.1", port });
  const { conn, info } = await layer.connect(tcp, name);
  try {
    await conn.write(new TextEncoder().encode(`GET ${path} HTTP/1.0\r\nHost: ${name}\r\n\r\n`));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(65536);
    for (let n; (n = await conn.read(buf)) !== null;) chunks.push(buf.slice(0, n));
    const all = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
    chunks.reduce((o, c) => (all.set(c, o), o + c.length), 0);
    const split = all.findIndex((_, i) =>
      all[i] === 13 && all[i + 1] === 10 && all[i + 2] === 13 && all[i + 3] === 10
    );
    return { head: new TextDecoder().decode(all.subarray(0, split)), body: all.subarray(split + 4), info };
  } finally {
    conn.close();
  }
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function spkiPin(dir: string): Promise<string> {
  const out = await new Deno.Command("sh", {
    args: [
      "-c",
      `openssl x509 -in ${dir}/leaf.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
    ],
  }).output();
  return text(out.stdout).trim();
}

Deno.test("TLS client → nginx (TLS 1.2 and 1.3): trust, SNI, ALPN, cipher, bulk byte for byte", async () => {
  await using d = await tempDir();
  const data = await setup(d.path);
  await using n12 = await startNginxTls(d.path, "TLSv1.2");
  await using n13 = await startNginxTls(d.path, "TLSv1.3");
  const trust = { certificate_path: `${d.path}/ca.pem` };
  for (const [peer, version] of [[n12, "TLSv1.2"], [n13, "TLSv1.3"]] as const) {
    const info = await get({ ...trust, alpn: ["http/1.1"] }, peer.port, "/info");
    const [sni, proto, alpn] = text(info.body).split("|");
    assert.equal(sni, "localhost");
    assert.equal(proto, version);
    assert.equal(alpn, "http/1.1");
    assert.equal(info.info.alpn, "http/1.1");
    const blob = await get(trust, peer.port, "/blob");
    assert.equal(blob.body.length, data.length);
    assert.equal(sha(blob.body), sha(data));
  }
  // server_name overrides the dialled host; disable_sni sends none but still checks the name.
  const named = await get({ ...trust, server_name: "localhost" }, n13.port, "/info", "127.0.0.1");
  assert.equal(text(named.body).split("|")[0], "localhost");
  const noSni = await get({ ...trust, disable_sni: true }, n13.port, "/info");
  assert.equal(text(noSni.body).split("|")[0], "");
  // cipher_suites (sing-box's IANA names) reach the wire.
  const c = await get(
    { ...trust, cipher_suites: ["TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"] },
    n12.port,
    "/info",
  );
  assert.equal(text(c.body).split("|")[3], "ECDHE-ECDSA-CHACHA20-POLY1305");
});

Deno.test("TLS client: wrong CA, insecure, pins, version bounds fail or pass as configured", async () => {
  await using d = await tempDir();
  await setup(d.path);
  await using n12 = await startNginxTls(d.path, "TLSv1.2");
  await using n13 = await startNginxTls(d.path, "TLSv1.3");
  // System roots do not include the test CA.
  await assert.rejects(
    get({}, n12.port, "/info"),
    /certificate verify failed \(unable to get local issuer certificate\)/,
  );
  // The right CA but the wrong name.
  await assert.rejects(
    get({ certificate_path: `${d.path}/ca.pem`, server_name: "example.com" }, n12.port, "/info"),
    /certificate verify failed \(hostname mismatch\)/,
  );
  assert.match(text((await get({ insecure: true }, n12.port, "/info")).body), /^localhost\|TLSv1.2/);
  const pin = await spkiPin(d.path);
  assert.match(
    text((await get({ certificate_public_key_sha256: [pin] }, n13.port, "/info")).body),
    /TLSv1.3/,
  );
  await assert.rejects(
    get({ certificate_public_key_sha256: [btoa("x".repeat(32))] }, n13.port, "/info"),
    /does not match certificate_public_key_sha256/,
  );
  await assert.rejects(get({ insecure: true, min_version: "1.3" }, n12.port, "/info"), /protocol version/);
  await assert.rejects(get({ insecure: true, max_version: "1.2" }, n13.port, "/info"), /protocol version/);
});

Deno.test("TLS client: ALPN against openssl s_server, client certificate against nginx", async () => {
  await using d = await tempDir();
  await setup(d.path);
  await using s = await startSServer(d.path, ["-alpn", "foo,bar", "-tls1_3"]);
  const r = await get({ certificate_path: `${d.path}/ca.pem`, alpn: ["bar", "baz"] }, s.port, "/");
  assert.equal(r.info.alpn, "bar");
  // Client certificate: a leaf signed by the same CA, required by nginx.
  const sh = (cmd: string) => new Deno.Command("sh", { args: ["-c", cmd], cwd: d.path }).output();
  await sh(
    "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=client -keyout client.key -out client.csr" +
      " && printf 'extendedKeyUsage=clientAuth\\n' > client.ext" +
      " && openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out client.pem -extfile client.ext",
  );
  await using n = await startNginxTls(
    d.path,
    "TLSv1.3",
    `ssl_client_certificate ${d.path}/ca.pem; ssl_verify_client on;`,
  );
  const trust = { certificate_path: `${d.path}/ca.pem` };
  const withCert = await get(
    {
      ...trust,
      client_certificate_path: `${d.path}/client.pem`,
      client_key_path: `${d.path}/client.key`,
    },
    n.port,
    "/info",
  );
  assert.equal(text(withCert.body).split("|")[4], "SUCCESS");
  const without = await get(trust, n.port, "/info");
  assert.match(without.head, /^HTTP\/1.1 400/); // nginx: "No required SSL certificate was sent"
});

Deno.test("TLS config errors name their JSON path", () => {
  assert.throws(
    () =>
      tlsClientLayer(
        { enabled: true, certificate_path: "/nonexistent.pem" } as OutboundTlsModel,
        {},
        "/outbounds/3",
      ),
    (e: Error) => e.message.startsWith("/outbounds/3/tls/certificate_path: cannot read"),
  );
  assert.throws(
    () =>
      tlsClientLayer({ enabled: true, cipher_suites: ["TLS_NOPE"] } as OutboundTlsModel, {}, "/outbounds/0"),
    (e: Error) => e.message === '/outbounds/0/tls/cipher_suites/0: unknown cipher suite "TLS_NOPE"',
  );
  assert.throws(
    () =>
      tlsClientLayer(
        { enabled: true, insecure: true } as OutboundTlsModel,
        { engine: "rustls" },
        "/outbounds/1",
      ),
    (e: Error) => e.message.startsWith("/outbounds/1/tls/insecure: needs OpenSSL 3"),
  );
  assert.throws(
    () => tlsServerLayer({ enabled: true } as never, "/inbounds/2"),
    (e: Error) => e.message === "/inbounds/2/tls: a TLS server needs certificate or certificate_path",
  );
});

Deno.test("http inbound with TLS is an HTTPS proxy for curl; http outbound with TLS → squid https_port", async () => {
  await using d = await tempDir();
  await setup(d.path);
  await using o = origin();
  await using squid = await startSquidHttps(d.path);
  await using svc = await startEngine({
    log: { level: "info" },
    inbounds: [{
      type: "http",
      tag: "in",
      listen: "127.0.0.1",
      listen_port: 0,
      tls: { enabled: true, certificate_path: `${d.path}/leaf.pem`, key_path: `${d.path}/leaf.key` },
    }],
    outbounds: [{
      type: "http",
      tag: "squid",
      server: "127.0.0.1",
      server_port: squid.port,
      tls: { enabled: true, server_name: "localhost", certificate_path: `${d.path}/ca.pem` },
    }],
  });
  const p = inboundPort(svc, "in");
  const proxy = ["--proxy", `https://localhost:${p}`, "--proxy-cacert", `${d.path}/ca.pem`];
  const direct = await curl(["-o", "-", o.url("/bytes?n=2000000")]);
  const viaConnect = await curl([...proxy, "-p", "-o", "-", o.url("/bytes?n=2000000")]);
  assert.equal(viaConnect.code, 0, viaConnect.stderr);
  assert.equal(viaConnect.stdout.length, 2000000);
  assert.equal(viaConnect.stdout, direct.stdout);
  const viaGet = await curl([...proxy, o.url("/hello")]);
  assert.equal(viaGet.stdout, "hello from origin\n", viaGet.stderr);
  assert.ok(Deno.readTextFileSync(`${squid.dir}/access.log`).includes(`127.0.0.1:${o.port}`));
  // A client that does not trust svc's certificate is refused by its own TLS check.
  const untrusted = await curl(["--proxy", `https://localhost:${p}`, o.url("/hello")]);
  assert.notEqual(untrusted.code, 0);
});

Deno.test("socks outbound with TLS → stunnel → dante, and → svc's own socks+TLS inbound", async () => {
  await using d = await tempDir();
  await setup(d.path);
  await using o = origin();
  await using dante = await startDante();
  await using stunnel = await startStunnel(d.path, dante.port);
  await using server = await startEngine({
    inbounds: [{
      type: "socks",
      tag: "tls-socks",
      listen: "127.0.0.1",
      listen_port: 0,
      tls: { enabled: true, certificate_path: `${d.path}/leaf.pem`, key_path: `${d.path}/leaf.key` },
    }],
    outbounds: [{ type: "direct", tag: "direct" }],
  });
  const tlsSocks = inboundPort(server, "tls-socks");
  const tls = { enabled: true, server_name: "localhost", certificate_path: `${d.path}/ca.pem` };
  await using svc = await startEngine({
    inbounds: [{ type: "mixed", tag: "in", listen: "127.0.0.1", listen_port: 0 }],
    outbounds: [
      { type: "socks", tag: "stunnel", server: "127.0.0.1", server_port: stunnel.port, tls },
      { type: "socks", tag: "svc", server: "127.0.0.1", server_port: tlsSocks, tls },
    ],
    route: { rules: [{ port: [o.port], outbound: "stunnel" }], final: "svc" },
  });
  const p = inboundPort(svc, "in");
  const direct = await curl(["-o", "-", o.url("/bytes?n=3000000")]);
  const viaStunnel = await curl(["-x", `socks5h://127.0.0.1:${p}`, "-o", "-", o.url("/bytes?n=3000000")]);
  assert.equal(viaStunnel.code, 0, viaStunnel.stderr);
  assert.equal(viaStunnel.stdout, direct.stdout);
  assert.ok(dante.log().includes(`127.0.0.1.${o.port}`), dante.log());
  await using o2 = origin();
  const viaSvc = await curl(["-x", `socks5h://127.0.0.1:${p}`, "-o", "-", o2.url("/bytes?n=3000000")]);
  assert.equal(viaSvc.code, 0, viaSvc.stderr);
  assert.equal(viaSvc.stdout.length, 3000000);
  assert.equal(viaSvc.stdout, (await curl(["-o", "-", o2.url("/bytes?n=3000000")])).stdout);
});

Deno.test("certificate store chrome: the Chrome Root Store's anchors from the Mozilla bundle, plus given certificates", async () => {
  const { chromeRoots, mozillaRoots, trustFromCertificateObject } = await import("../../src/tls/store.ts");
  const { X509Certificate } = await import("node:crypto");
  const names = chromeRoots().map((p) => new X509Certificate(p).subject);
  assert.ok(names.some((s) => s.includes("ISRG Root X1")), "ISRG Root X1 is in both stores");
  assert.ok(chromeRoots().length > 100 && chromeRoots().length < mozillaRoots().length);
  await using d = await tempDir();
  await setup(d.path);
  await using n13 = await startNginxTls(d.path, "TLSv1.3");
  const trust = (extra: string[]) =>
    trustFromCertificateObject({ store: "chrome", certificate_path: extra } as never, "/certificate");
  const getWith = async (t: ReturnType<typeof trust>) => {
    const layer = tlsClientLayer({ enabled: true } as OutboundTlsModel, { trust: t }, "/outbounds/0");
    const tcp = await Deno.connect({ hostname: "127.0.0.1", port: n13.port });
    const { conn } = await layer.connect(tcp, "localhost");
    conn.close();
  };
  await assert.rejects(getWith(trust([])), /unable to get local issuer certificate/);
  await getWith(trust([`${d.path}/ca.pem`]));
});
