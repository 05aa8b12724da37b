/** VLESS bench case: vless+TLS svc↔svc against v2ray 4.34 ↔ v2ray 4.34 (target ≥ 1.0× bulk). */
import { makeTestCertificates } from "../../../tests/support/certs.ts";
import { type Comparison, type Env, HOST, type Pair, svcClientConfig, svcServerConfig } from "./kit.ts";

const UUID = "8e1d2c3b-4a5f-4b6e-8d7c-9a0b1c2d3e4f";

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
        "svc-vless-server",
        svcServerConfig({
          type: "vless",
          listen_port: server,
          users: [{ name: "bench", uuid: UUID }],
          tls: { enabled: true, certificate_path: `${dir}/leaf.pem`, key_path: `${dir}/leaf.key` },
        }),
        server,
      );
      await env.svc(
        "svc-vless-client",
        svcClientConfig(client, {
          type: "vless",
          server: HOST,
          server_port: server,
          uuid: UUID,
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
          protocol: "vless",
          settings: { clients: [{ id: UUID }], decryption: "none" },
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
          protocol: "vless",
          settings: { vnext: [{ address: HOST, port: server, users: [{ id: UUID, encryption: "none" }] }] },
          streamSettings: { security: "tls", tlsSettings: { serverName: "localhost", allowInsecure: true } },
        }],
      };
      const s = env.spawn("v2ray-vless-server", "v2ray", [
        "-config",
        env.file("v2ray-vless-server.json", JSON.stringify(serverConf)),
      ], "v2ray");
      await env.waitForPort(server, s);
      const c = env.spawn("v2ray-vless-client", "v2ray", [
        "-config",
        env.file("v2ray-vless-client.json", JSON.stringify(clientConf)),
      ], "v2ray");
      await env.waitForPort(client, c);
      return client;
    },
  };
}

export function cases(env: Env): Comparison[] {
  let made: Promise<Certs> | undefined;
  const certs = () =>
    made ??= (async () => {
      const dir = `${env.tmp}/vless-certs`;
      await Deno.mkdir(dir, { recursive: true });
      await makeTestCertificates(dir);
      return { dir, ca: await Deno.readTextFile(`${dir}/ca.pem`) };
    })();
  const v2ray = env.which(["/usr/bin/v2ray", "/usr/local/bin/v2ray"]);
  return [{
    name: "vless+tls",
    svc: svcPair(certs),
    peers: v2ray ? [v2rayPair(certs)] : [],
    targets: v2ray ? [{ peer: "v2ray", metric: "bulk", atLeast: 1.0 }] : [],
  }];
}
