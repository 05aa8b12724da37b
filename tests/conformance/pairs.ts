/**
 * The table of inbound/outbound pairs the conformance suite runs: svc outbound X → svc inbound X.
 * Add a protocol by adding one entry: its server-side inbound (listening on port 0, with the
 * given credentials), its client-side outbound towards that port, and what it carries.
 * A pair whose secret has a format of its own (a UUID, a base64 key) sets `credentials`.
 */

/** Everything a pair needs to build both sides. */
export interface PairEnv {
  /** Folder with ca.pem, leaf.pem, leaf.key (tests/support/certs.ts). */
  certs: string;
  /** The CA's PEM, for outbounds' `tls.certificate`. */
  ca: string;
}

export interface Credentials {
  user: string;
  secret: string;
}

export interface Pair {
  name: string;
  /** The server inbound, accepting exactly `creds`. */
  inbound(env: PairEnv, creds: Credentials): Record<string, unknown>;
  /** The client outbound towards `port`, presenting `creds`. */
  outbound(env: PairEnv, port: number, creds: Credentials): Record<string, unknown>;
  /** Its own good and wrong credentials, when the shared passwords do not fit. */
  credentials?: { good: Credentials; wrong: Credentials };
  /** Whether the pair carries UDP. */
  udp: boolean;
  /** Whether the inbound speaks TLS (garbage and stall cases then start with a TLS handshake). */
  tls: boolean;
  /**
   * Cases this pair is known to fail, with why: the suite shows them as ignored with the reason,
   * so a gap stays visible until it is fixed (then delete the entry).
   */
  knownGaps?: { stalledServer?: string; garbageClose?: string; garbageFlood?: string };
}

const GOOD: Credentials = { user: "alice", secret: "correct horse battery" };
export const goodCredentials = GOOD;
export const wrongCredentials: Credentials = { user: "alice", secret: "wrong password" };

const serverTls = (env: PairEnv) => ({
  enabled: true,
  certificate_path: `${env.certs}/leaf.pem`,
  key_path: `${env.certs}/leaf.key`,
});
const clientTls = (env: PairEnv) => ({ enabled: true, server_name: "localhost", certificate: [env.ca] });

/** socks, http and mixed share the username/password shape. */
function userPass(
  type: string,
  udp: boolean,
  outboundType = type,
  extra: Record<string, unknown> = {},
): Pair {
  return {
    name: type === outboundType ? type : `${outboundType} → ${type}`,
    udp,
    tls: false,
    inbound: (_env, c) => ({ type, users: [{ username: c.user, password: c.secret }] }),
    outbound: (_env, port, c) => ({
      type: outboundType,
      server: "127.0.0.1",
      server_port: port,
      username: c.user,
      password: c.secret,
      ...extra,
    }),
  };
}

function shadowsocks(method: string, credentials?: Pair["credentials"]): Pair {
  return {
    name: `shadowsocks ${method}`,
    udp: true,
    tls: false,
    credentials,
    knownGaps: {
      stalledServer: "shadowsocks has no server reply before data, so a silent server looks like a slow " +
        "one; only idle timeouts end it",
    },
    inbound: (_env, c) => ({ type: "shadowsocks", method, password: c.secret }),
    outbound: (_env, port, c) => ({
      type: "shadowsocks",
      server: "127.0.0.1",
      server_port: port,
      method,
      password: c.secret,
    }),
  };
}

const uuids = {
  good: { user: "alice", secret: "b831381d-6324-4d53-ad4f-8cda48b30811" },
  wrong: { user: "alice", secret: "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9" },
};
// 16-byte keys, base64, as SIP022 requires.
const ss2022 = {
  good: { user: "alice", secret: btoa("0123456789abcdef") },
  wrong: { user: "alice", secret: btoa("fedcba9876543210") },
};

export const PAIRS: Pair[] = [
  userPass("socks", true, "socks", { version: "5" }),
  userPass("http", false),
  userPass("mixed", true, "socks", { version: "5" }),
  {
    name: "trojan+tls",
    udp: true,
    tls: true,
    inbound: (env, c) => ({
      type: "trojan",
      users: [{ name: c.user, password: c.secret }],
      tls: serverTls(env),
    }),
    outbound: (env, port, c) => ({
      type: "trojan",
      server: "127.0.0.1",
      server_port: port,
      password: c.secret,
      tls: clientTls(env),
    }),
  },
  shadowsocks("aes-128-gcm"),
  shadowsocks("chacha20-ietf-poly1305"),
  shadowsocks("2022-blake3-aes-128-gcm", ss2022),
  {
    name: "vmess aes-128-gcm",
    udp: true,
    knownGaps: {
      stalledServer: "vmess has no server reply before data, so a silent server looks like a slow one; " +
        "only idle timeouts end it",
    },
    tls: false,
    credentials: uuids,
    inbound: (_env, c) => ({ type: "vmess", users: [{ name: c.user, uuid: c.secret, alterId: 0 }] }),
    outbound: (_env, port, c) => ({
      type: "vmess",
      server: "127.0.0.1",
      server_port: port,
      uuid: c.secret,
      security: "aes-128-gcm",
    }),
  },
  {
    name: "vless+tls",
    udp: true,
    tls: true,
    credentials: uuids,
    inbound: (env, c) => ({ type: "vless", users: [{ name: c.user, uuid: c.secret }], tls: serverTls(env) }),
    outbound: (env, port, c) => ({
      type: "vless",
      server: "127.0.0.1",
      server_port: port,
      uuid: c.secret,
      tls: clientTls(env),
    }),
  },
  // Transports: the same cases with ws, gRPC (over TLS, gun as sing-box and Xray speak it) and
  // HTTP upgrade between the protocol and TCP. Each transport answers (101, h2 SETTINGS) before
  // any protocol data, so a silent server fails the dial within connect_timeout.
  {
    name: "vmess+ws",
    udp: true,
    tls: false,
    credentials: uuids,
    inbound: (_env, c) => ({
      type: "vmess",
      users: [{ name: c.user, uuid: c.secret, alterId: 0 }],
      transport: { type: "ws", path: "/conformance" },
    }),
    outbound: (_env, port, c) => ({
      type: "vmess",
      server: "127.0.0.1",
      server_port: port,
      uuid: c.secret,
      security: "aes-128-gcm",
      transport: { type: "ws", path: "/conformance" },
    }),
  },
  {
    name: "vless+grpc+tls",
    udp: true,
    tls: true,
    credentials: uuids,
    inbound: (env, c) => ({
      type: "vless",
      users: [{ name: c.user, uuid: c.secret }],
      tls: serverTls(env),
      transport: { type: "grpc", service_name: "Conformance" },
    }),
    outbound: (env, port, c) => ({
      type: "vless",
      server: "127.0.0.1",
      server_port: port,
      uuid: c.secret,
      tls: clientTls(env),
      transport: { type: "grpc", service_name: "Conformance" },
    }),
  },
  {
    name: "trojan+httpupgrade",
    udp: true,
    tls: false,
    inbound: (_env, c) => ({
      type: "trojan",
      users: [{ name: c.user, password: c.secret }],
      transport: { type: "httpupgrade", path: "/conformance" },
    }),
    outbound: (_env, port, c) => ({
      type: "trojan",
      server: "127.0.0.1",
      server_port: port,
      password: c.secret,
      transport: { type: "httpupgrade", path: "/conformance" },
    }),
  },
];
