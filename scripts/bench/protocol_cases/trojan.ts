/**
 * Trojan bench cases: trojan+TLS svc↔svc against v2ray 4.34 (target ≥ 1.0×) and trojan-gfw
 * 1.16, all on one CA + leaf made with openssl (tests/support/certs.ts) in the bench's folder.
 */
import { makeTestCertificates } from "../../../tests/support/certs.ts";
import { type Comparison, type Env, HOST, type Pair, svcClientConfig, svcServerConfig } from "./kit.ts";

const PASSWORD = "bench-password";

interface Certs {
  dir: string;
  ca: string;
}

function svcPair(certs: () => Promise<Certs>): Pair {
  return {
    name: "svc",
    async start(env) {
      const { dir, ca } = await certs();
      const server = env.freePort(), client = env.freePort();
      await env.svc(
        "svc-trojan-server",
        svcServerConfig({
          type: "trojan",
          listen_port: server,
          users: [{ name: "bench", password: PASSWORD }],
          tls: { enabled: true, certificate_path: `${dir}/leaf.pem`, key_path: `${dir}/leaf.key` },
        }),
        server,
      );
      await env.svc(
        "svc-trojan-client",
        svcClientConfig(client, {
          type: "trojan",
          server: HOST,
          server_port: server,
          password: PASSWORD,
          tls: { enabled: true, server_name: "localhost", certificate: [ca] },
        }),
        client,
      );
      return client;
    },
  };
}

function v2rayPair(certs: () => Promise<Certs>): Pair {
  return {
    name: "v2ray",
    async start(env) {
      const { dir } = await certs();
      const server = env.freePort(), client = env.freePort();
      const serverConf = {
        log: { loglevel: "none" },
        inbounds: [{
          listen: HOST,
          port: server,
          protocol: "trojan",
          settings: { clients: [{ password: PASSWORD }] },
          streamSettings: {
            security: "tls",
            tlsSettings: {
              certificates: [{ certificateFile: `${dir}/leaf.pem`, keyFile: `${dir}/leaf.key` }],
            },
          },
        }],
        outbounds: [{ protocol: "freedom" }],
      };
      const clientConf = {
        log: { loglevel: "none" },
        inbounds: [{ listen: HOST, port: client, protocol: "socks", settings: { udp: false } }],
        outbounds: [{
          protocol: "trojan",
          settings: { servers: [{ address: HOST, port: server, password: PASSWORD }] },
          streamSettings: { security: "tls", tlsSettings: { serverName: "localhost", allowInsecure: true } },
        }],
      };
      const s = env.spawn("v2ray-trojan-server", "v2ray", [
        "-config",
        env.file("v2ray-trojan-server.json", JSON.stringify(serverConf)),
      ], "v2ray");
      await env.waitForPort(server, s);
      const c = env.spawn("v2ray-trojan-client", "v2ray", [
        "-config",
        env.file("v2ray-trojan-client.json", JSON.stringify(clientConf)),
      ], "v2ray");
      await env.waitForPort(client, c);
      return client;
    },
  };
}

function trojanGfwPair(certs: () => Promise<Certs>): Pair {
  return {
    name: "trojan-gfw",
    async start(env) {
      const { dir } = await certs();
      const server = env.freePort(), client = env.freePort();
      const common = { remote_addr: HOST, password: [PASSWORD], log_level: 5 };
      const serverConf = {
        ...common,
        run_type: "server",
        local_addr: HOST,
        local_port: server,
        remote_port: 9, // fallback target; the bench sends only trojan
        ssl: { cert: `${dir}/leaf.pem`, key: `${dir}/leaf.key`, alpn: ["http/1.1"] },
      };
      const clientConf = {
        ...common,
        run_type: "client",
        local_addr: HOST,
        local_port: client,
        remote_port: server,
        ssl: { verify: true, cert: `${dir}/ca.pem`, sni: "localhost", alpn: ["http/1.1"] },
      };
      const s = env.spawn("trojan-gfw-server", "trojan", [
        "-c",
        env.file("trojan-gfw-server.json", JSON.stringify(serverConf)),
      ], "trojan");
      await env.waitForPort(server, s);
      const c = env.spawn("trojan-gfw-client", "trojan", [
        "-c",
        env.file("trojan-gfw-client.json", JSON.stringify(clientConf)),
      ], "trojan");
      await env.waitForPort(client, c);
      return client;
    },
  };
}

export function cases(env: Env): Comparison[] {
  let made: Promise<Certs> | undefined;
  const certs = () =>
    made ??= (async () => {
      const dir = `${env.tmp}/trojan-certs`;
      await Deno.mkdir(dir, { recursive: true });
      await makeTestCertificates(dir);
      return { dir, ca: await Deno.readTextFile(`${dir}/ca.pem`) };
    })();
  const v2ray = env.which(["/usr/bin/v2ray", "/usr/local/bin/v2ray"]);
  const gfw = env.which(["/usr/bin/trojan"]);
  return [{
    name: "trojan+tls",
    svc: svcPair(certs),
    peers: [...(v2ray ? [v2rayPair(certs)] : []), ...(gfw ? [trojanGfwPair(certs)] : [])],
    targets: v2ray ? [{ peer: "v2ray", metric: "bulk", atLeast: 1.0 }] : [],
  }];
}
