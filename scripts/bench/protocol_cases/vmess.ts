/**
 * VMess bench cases: vmess (aes-128-gcm, plain TCP) svc↔svc against v2ray 4.34 ↔ v2ray 4.34
 * (target ≥ 1.0× bulk), and vmess chacha20-poly1305 for information.
 */
import { type Comparison, type Env, HOST, type Pair, svcClientConfig, svcServerConfig } from "./kit.ts";

const UUID = "5f9a3c1e-2b7d-4e8a-9c6f-1d2e3f4a5b6c";

function svcPair(security: string): Pair {
  return {
    name: "svc",
    async start(env) {
      const server = env.freePort(), client = env.freePort();
      await env.svc(
        `svc-vmess-${security}-server`,
        svcServerConfig({
          type: "vmess",
          listen_port: server,
          users: [{ name: "bench", uuid: UUID, alterId: 0 }],
        }),
        server,
      );
      await env.svc(
        `svc-vmess-${security}-client`,
        svcClientConfig(client, { type: "vmess", server: HOST, server_port: server, uuid: UUID, security }),
        client,
      );
      return client;
    },
  };
}

function v2rayPair(security: string): Pair {
  return {
    name: "v2ray",
    async start(env) {
      const server = env.freePort(), client = env.freePort();
      const serverConf = {
        log: { loglevel: "none" },
        inbounds: [{
          listen: HOST,
          port: server,
          protocol: "vmess",
          settings: { clients: [{ id: UUID, alterId: 0 }] },
        }],
        outbounds: [{ protocol: "freedom" }],
      };
      const clientConf = {
        log: { loglevel: "none" },
        inbounds: [{ listen: HOST, port: client, protocol: "socks", settings: { udp: false } }],
        outbounds: [{
          protocol: "vmess",
          settings: { vnext: [{ address: HOST, port: server, users: [{ id: UUID, alterId: 0, security }] }] },
        }],
      };
      const s = env.spawn(`v2ray-vmess-${security}-server`, "v2ray", [
        "-config",
        env.file(`v2ray-vmess-${security}-server.json`, JSON.stringify(serverConf)),
      ], "v2ray");
      await env.waitForPort(server, s);
      const c = env.spawn(`v2ray-vmess-${security}-client`, "v2ray", [
        "-config",
        env.file(`v2ray-vmess-${security}-client.json`, JSON.stringify(clientConf)),
      ], "v2ray");
      await env.waitForPort(client, c);
      return client;
    },
  };
}

export function cases(env: Env): Comparison[] {
  const v2ray = env.which(["/usr/bin/v2ray", "/usr/local/bin/v2ray"]);
  return ["aes-128-gcm", "chacha20-poly1305"].map((security) => ({
    name: `vmess ${security}`,
    svc: svcPair(security),
    peers: v2ray ? [v2rayPair(security)] : [],
    targets: v2ray && security === "aes-128-gcm" ? [{ peer: "v2ray", metric: "bulk", atLeast: 1.0 }] : [],
  }));
}
