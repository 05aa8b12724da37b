/**
 * Real TLS peers for the TLS tests and bench (PEERS.md): nginx with TLS (one protocol version
 * per server), stunnel in front of a TCP service, squid with `https_port` (an HTTPS proxy) and
 * `openssl s_server`. Each on a free loopback port, stopped by its own PID when disposed.
 */
/** Resolves once something accepts TCP on the port (as support/peers.ts, which imports the engine). */
async function waitForPort(port: number, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`Nothing listens on 127.0.0.1:${port} after ${ms} ms: ${e}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** A free loopback port (as support/engine.ts, without importing the engine: the bench uses this). */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

export interface TlsPeer {
  port: number;
  dir: string;
  [Symbol.asyncDispose](): Promise<void>;
}

async function spawn(cmd: string, args: string[], port: number, dir: string): Promise<TlsPeer> {
  const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "piped" }).spawn();
  const stderr = new Response(child.stderr).text();
  const dispose = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 3000);
    await child.status;
    clearTimeout(timer);
    await stderr;
  };
  try {
    await Promise.race([
      waitForPort(port),
      child.status.then(async (s) => {
        throw new Error(`${cmd} exited with ${s.code} before listening: ${await stderr}`);
      }),
    ]);
  } catch (e) {
    await dispose();
    throw e;
  }
  return { port, dir, [Symbol.asyncDispose]: dispose };
}

/**
 * nginx serving `dir/www` over TLS with the leaf certificate in `dir` (makeTestCertificates),
 * limited to one protocol version. `/info` answers "SNI|protocol|ALPN|cipher|client-verify".
 */
export async function startNginxTls(
  dir: string,
  protocol: "TLSv1.2" | "TLSv1.3",
  extra = "",
): Promise<TlsPeer> {
  const port = freePort();
  const conf = `${dir}/nginx-${port}.conf`;
  await Deno.writeTextFile(
    conf,
    `daemon off; master_process off; worker_processes 1; user root; pid ${dir}/nginx-${port}.pid;
error_log ${dir}/nginx-${port}.err warn;
events { worker_connections 256; }
http {
  access_log off; sendfile on;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${dir}/leaf.pem; ssl_certificate_key ${dir}/leaf.key;
    ssl_protocols ${protocol};
    ${extra}
    root ${dir}/www;
    location = /info {
      default_type text/plain;
      return 200 "$ssl_server_name|$ssl_protocol|$ssl_alpn_protocol|$ssl_cipher|$ssl_client_verify";
    }
  }
}
`,
  );
  return await spawn("/usr/sbin/nginx", ["-c", conf, "-e", `${dir}/nginx-${port}.err`], port, dir);
}

/** `openssl s_server -www` with the leaf certificate, the given ALPN list and version flag. */
export async function startSServer(dir: string, args: string[]): Promise<TlsPeer> {
  const port = freePort();
  return await spawn(
    "openssl",
    [
      "s_server",
      "-accept",
      `127.0.0.1:${port}`,
      "-cert",
      `${dir}/leaf.pem`,
      "-key",
      `${dir}/leaf.key`,
      "-www",
      ...args,
    ],
    port,
    dir,
  ); // deno-fmt-ignore
}

/** stunnel (server mode) accepting TLS and forwarding plain TCP to `connectPort`. */
export async function startStunnel(dir: string, connectPort: number): Promise<TlsPeer> {
  const port = freePort();
  const conf = `${dir}/stunnel-${port}.conf`;
  await Deno.writeTextFile(
    conf,
    `foreground = yes\npid =\n[svc]\naccept = 127.0.0.1:${port}\nconnect = 127.0.0.1:${connectPort}\n` +
      `cert = ${dir}/leaf.pem\nkey = ${dir}/leaf.key\n`,
  );
  return await spawn("/usr/bin/stunnel4", [conf], port, dir);
}

/** squid with an `https_port`: an HTTPS proxy (TLS to the proxy, then GET or CONNECT). */
export async function startSquidHttps(dir: string): Promise<TlsPeer> {
  const port = freePort();
  const sq = await Deno.makeTempDir({ prefix: "svc-squid-tls-" });
  await Deno.chmod(sq, 0o777);
  for (const f of ["leaf.pem", "leaf.key"]) {
    await Deno.copyFile(`${dir}/${f}`, `${sq}/${f}`);
    await Deno.chmod(`${sq}/${f}`, 0o644);
  }
  const conf = `${sq}/squid.conf`;
  await Deno.writeTextFile(
    conf,
    [
      `https_port 127.0.0.1:${port} tls-cert=${sq}/leaf.pem tls-key=${sq}/leaf.key`,
      `http_port 127.0.0.1:${freePort()}`,
      "acl localnet src 127.0.0.1/32 ::1",
      "http_access allow localnet",
      "http_access deny all",
      "cache deny all",
      "pinger_enable off",
      "udp_incoming_address 127.0.0.1",
      "icp_port 0",
      "htcp_port 0",
      "shutdown_lifetime 0 seconds",
      "visible_hostname svc-test",
      `pid_filename ${sq}/squid.pid`,
      `access_log stdio:${sq}/access.log`,
      `cache_log ${sq}/cache.log`,
      `coredump_dir ${sq}`,
      "",
    ].join("\n"),
  );
  const peer = await spawn("/usr/sbin/squid", ["-N", "-f", conf], port, sq);
  return {
    ...peer,
    async [Symbol.asyncDispose]() {
      await peer[Symbol.asyncDispose]();
      await Deno.remove(sq, { recursive: true }).catch(() => {});
    },
  };
}
