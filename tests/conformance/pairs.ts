/**
 * The table of inbound/outbound pairs the conformance suite runs: svc outbound X → svc inbound X.
 * Add a protocol by adding one entry: its server-side inbound (listening on port 0, with the
 * given credentials), its client-side outbound towards that port, and what it carries.
 * Not here yet (their engineers are building them): shadowsocks, vless, vmess.
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
  /** Whether the pair carries UDP. */
  udp: boolean;
  /** Whether the inbound speaks TLS (garbage and stall cases then start with a TLS handshake). */
  tls: boolean;
  /**
   * Cases this pair is known to fail, with why: the suite shows them as ignored with the reason,
   * so a gap stays visible until it is fixed (then delete the entry).
   */
  knownGaps?: { stalledServer?: string };
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
    knownGaps: {
      stalledServer: `the ${outboundType} outbound's handshake has no timeout: a server that accepts and ` +
        "stays silent holds the dial until the client gives up",
    },
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
];
