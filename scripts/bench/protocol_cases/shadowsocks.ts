/**
 * Shadowsocks bench cases: svc↔svc against v2ray (aes-128-gcm, target ≥ 1.0×) and ss-libev
 * (chacha20-ietf-poly1305, target ≥ 1.5×), plus a 2022 method svc↔svc for reference.
 */
import { type Comparison, type Env, HOST, type Pair, svcClientConfig, svcServerConfig } from "./kit.ts";

const PASSWORD = "bench-password";

function svcPair(method: string, password = PASSWORD): Pair {
  return {
    name: "svc",
    async start(env) {
      const server = env.freePort(), client = env.freePort();
      await env.svc(
        `svc-ss-server-${method}`,
        svcServerConfig({ type: "shadowsocks", listen_port: server, method, password }),
        server,
      );
      await env.svc(
        `svc-ss-client-${method}`,
        svcClientConfig(client, { type: "shadowsocks", server: HOST, server_port: server, method, password }),
        client,
      );
      return client;
    },
  };
}

function ssLibevPair(method: string): Pair {
  return {
    name: "ss-libev",
    async start(env) {
      const server = env.freePort(), client = env.freePort();
      const conf = (local: number) =>
        JSON.stringify({
          server: HOST,
          server_port: server,
          local_address: HOST,
          local_port: local,
          password: PASSWORD,
          method,
          timeout: 60,
        });
      const s = env.spawn(
        "ss-server",
        "ss-server",
        ["-c", env.file(`ss-server-${method}.json`, conf(0))],
        "ss-server",
      );
      await env.waitForPort(server, s);
      const c = env.spawn(
        "ss-local",
        "ss-local",
        ["-c", env.file(`ss-local-${method}.json`, conf(client))],
        "ss-local",
      );
      await env.waitForPort(client, c);
      return client;
    },
  };
}

function v2rayPair(method: string): Pair {
  return {
    name: "v2ray",
    async start(env) {
      const server = env.freePort(), client = env.freePort();
      const serverConf = {
        log: { loglevel: "none" },
        inbounds: [{
          listen: HOST,
          port: server,
          protocol: "shadowsocks",
          settings: { method, password: PASSWORD },
        }],
        outbounds: [{ protocol: "freedom" }],
      };
      const clientConf = {
        log: { loglevel: "none" },
        inbounds: [{ listen: HOST, port: client, protocol: "socks", settings: { udp: false } }],
        outbounds: [{
          protocol: "shadowsocks",
          settings: { servers: [{ address: HOST, port: server, method, password: PASSWORD }] },
        }],
      };
      const s = env.spawn("v2ray-server", "v2ray", [
        "-config",
        env.file("v2ray-ss-server.json", JSON.stringify(serverConf)),
      ], "v2ray");
      await env.waitForPort(server, s);
      const c = env.spawn("v2ray-client", "v2ray", [
        "-config",
        env.file("v2ray-ss-client.json", JSON.stringify(clientConf)),
      ], "v2ray");
      await env.waitForPort(client, c);
      return client;
    },
  };
}

export function cases(env: Env): Comparison[] {
  const out: Comparison[] = [];
  const v2ray = env.which(["/usr/bin/v2ray", "/usr/local/bin/v2ray"]);
  const libev = env.which(["/usr/bin/ss-server"]) && env.which(["/usr/bin/ss-local"]);
  out.push({
    name: "shadowsocks aes-128-gcm",
    svc: svcPair("aes-128-gcm"),
    peers: [...(v2ray ? [v2rayPair("aes-128-gcm")] : []), ...(libev ? [ssLibevPair("aes-128-gcm")] : [])],
    targets: v2ray ? [{ peer: "v2ray", metric: "bulk", atLeast: 1.0 }] : [],
  });
  out.push({
    name: "shadowsocks chacha20-ietf-poly1305",
    svc: svcPair("chacha20-ietf-poly1305"),
    peers: libev ? [ssLibevPair("chacha20-ietf-poly1305")] : [],
    targets: libev ? [{ peer: "ss-libev", metric: "bulk", atLeast: 1.5 }] : [],
  });
  // No packaged peer speaks SIP022: svc↔svc only, compared with ss-libev's aes-128-gcm for scale.
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  out.push({
    name: "shadowsocks 2022-blake3-aes-128-gcm",
    svc: svcPair("2022-blake3-aes-128-gcm", key),
    peers: libev ? [{ ...ssLibevPair("aes-128-gcm"), name: "ss-libev(aes-128-gcm)" }] : [],
    targets: [],
  });
  return out;
}
