/**
 * One OpenSSL SSL_CTX per `tls` block: versions, cipher suites, groups, ALPN, trust, own
 * certificate and client-certificate policy. Connections (openssl_conn.ts) share it.
 *
 * Every setting OpenSSL rejects becomes a ConfigError at the field's path. Cipher suite names
 * are sing-box's (Go's, which are the IANA names): TLS 1.3 suites go to set_ciphersuites as is,
 * the others are mapped to OpenSSL's names with OPENSSL_cipher_name.
 */
import { ConfigError } from "../common/errors.ts";
import { C, cstr, type Libssl, opensslErrors, TLS_VERSIONS } from "./libssl.ts";
import type { ClientSettings, CommonSettings, ServerSettings } from "./options.ts";
import { mozillaRoots, type TrustSettings } from "./store.ts";

/** Go/sing-box curve names -> OpenSSL group names. */
const GROUPS: Record<string, string> = {
  P256: "P-256",
  P384: "P-384",
  P521: "P-521",
  X25519: "X25519",
  X25519MLKEM768: "X25519MLKEM768",
};

export interface SslContext {
  readonly lib: Libssl;
  readonly ctx: Deno.PointerValue;
  /** Callbacks the context holds (ALPN selection, verify); kept alive with it. */
  readonly callbacks: { close(): void }[];
}

function fail(lib: Libssl, path: string, what: string): never {
  const detail = opensslErrors(lib);
  throw new ConfigError(path, detail ? `${what}: ${detail}` : what);
}

/** A memory BIO holding `text`; the caller frees it. */
function memBio(lib: Libssl, text: string): Deno.PointerValue {
  const bio = lib.crypto.BIO_new(lib.memMethod);
  const bytes = new TextEncoder().encode(text);
  lib.crypto.BIO_write(bio, bytes, bytes.length);
  return bio;
}

/** Every certificate in `pem`, parsed (X509*, the caller frees them). */
export function parseCertificates(lib: Libssl, pem: string): Deno.PointerValue[] {
  const bio = memBio(lib, pem);
  const out: Deno.PointerValue[] = [];
  try {
    for (;;) {
      const x = lib.crypto.PEM_read_bio_X509(bio, null, null, null);
      if (x === null) break;
      out.push(x);
    }
  } finally {
    lib.crypto.BIO_free(bio);
    lib.crypto.ERR_clear_error(); // the end of input leaves "no start line" behind
  }
  return out;
}

function addTrust(lib: Libssl, ctx: Deno.PointerValue, trust: TrustSettings, path: string): void {
  if (trust.store === "system" && lib.ssl.SSL_CTX_set_default_verify_paths(ctx) !== 1) {
    fail(lib, path, "cannot load the system certificate store");
  }
  const store = lib.ssl.SSL_CTX_get_cert_store(ctx);
  const pems = [...(trust.store === "mozilla" ? mozillaRoots() : []), ...trust.certificates];
  for (const pem of pems) {
    const certs = parseCertificates(lib, pem);
    if (!certs.length) throw new ConfigError(path, "no PEM certificate found in a trusted certificate entry");
    for (const x of certs) {
      lib.crypto.X509_STORE_add_cert(store, x);
      lib.crypto.X509_free(x);
    }
  }
  lib.crypto.ERR_clear_error(); // duplicates report "cert already in hash table"
  // As Go: a trusted certificate needs no chain above it (a self-signed leaf, an intermediate).
  lib.crypto.X509_VERIFY_PARAM_set_flags(lib.ssl.SSL_CTX_get0_param(ctx), C.X509_V_FLAG_PARTIAL_CHAIN);
}

function useCertificate(lib: Libssl, ctx: Deno.PointerValue, chain: string, key: string, path: string) {
  const certs = parseCertificates(lib, chain);
  if (!certs.length) throw new ConfigError(path, "no PEM certificate found");
  try {
    if (lib.ssl.SSL_CTX_use_certificate(ctx, certs[0]) !== 1) fail(lib, path, "certificate refused");
    for (const x of certs.slice(1)) {
      // SSL_CTX_add1_chain_cert: takes its own reference.
      if (lib.ssl.SSL_CTX_ctrl_ptr(ctx, C.SSL_CTRL_CHAIN_CERT, 1n, x) !== 1n) {
        fail(lib, path, "chain refused");
      }
    }
  } finally {
    certs.forEach((x) => lib.crypto.X509_free(x));
  }
  const bio = memBio(lib, key);
  const pkey = lib.crypto.PEM_read_bio_PrivateKey(bio, null, null, null);
  lib.crypto.BIO_free(bio);
  if (pkey === null) fail(lib, path, "no PEM private key found");
  try {
    if (lib.ssl.SSL_CTX_use_PrivateKey(ctx, pkey) !== 1) fail(lib, path, "private key refused");
  } finally {
    lib.crypto.EVP_PKEY_free(pkey);
  }
  if (lib.ssl.SSL_CTX_check_private_key(ctx) !== 1) {
    fail(lib, path, "the private key does not match the certificate");
  }
}

function applyCommon(lib: Libssl, ctx: Deno.PointerValue, s: CommonSettings): void {
  const { ssl } = lib;
  ssl.SSL_CTX_set_options(ctx, C.SSL_OP_NO_RENEGOTIATION | C.SSL_OP_IGNORE_UNEXPECTED_EOF);
  for (
    const [field, value, cmd] of [
      ["min_version", s.minVersion, C.SSL_CTRL_SET_MIN_PROTO_VERSION],
      ["max_version", s.maxVersion, C.SSL_CTRL_SET_MAX_PROTO_VERSION],
    ] as const
  ) {
    if (value && ssl.SSL_CTX_ctrl(ctx, cmd, BigInt(TLS_VERSIONS[value]), null) !== 1n) {
      fail(lib, `${s.path}/${field}`, `TLS ${value} is not available`);
    }
  }
  if (s.cipherSuites?.length) {
    const v13: string[] = [], v12: string[] = [];
    s.cipherSuites.forEach((name, i) => {
      if (/^TLS_(AES|CHACHA20)_/.test(name)) return void v13.push(name);
      const p = ssl.OPENSSL_cipher_name(cstr(name));
      const mapped = p === null ? "(NONE)" : Deno.UnsafePointerView.getCString(p);
      if (mapped === "(NONE)") {
        throw new ConfigError(`${s.path}/cipher_suites/${i}`, `unknown cipher suite "${name}"`);
      }
      v12.push(mapped);
    });
    // A list naming only one TLS generation leaves the other's defaults alone, as Go does.
    if (v12.length && ssl.SSL_CTX_set_cipher_list(ctx, cstr(v12.join(":"))) !== 1) {
      fail(lib, `${s.path}/cipher_suites`, "cipher suites refused");
    }
    if (v13.length && ssl.SSL_CTX_set_ciphersuites(ctx, cstr(v13.join(":"))) !== 1) {
      fail(lib, `${s.path}/cipher_suites`, "TLS 1.3 cipher suites refused");
    }
  }
  if (s.curves?.length) {
    const names = s.curves.map((c, i) => {
      const g = GROUPS[c];
      if (!g) throw new ConfigError(`${s.path}/curve_preferences/${i}`, `unknown curve "${c}"`);
      return g;
    });
    if (ssl.SSL_CTX_ctrl(ctx, C.SSL_CTRL_SET_GROUPS_LIST, 0n, cstr(names.join(":"))) !== 1n) {
      fail(lib, `${s.path}/curve_preferences`, "curves not available in this OpenSSL");
    }
  }
}

/** ALPN protocol list in wire form (length-prefixed names). */
export function alpnWire(protocols: string[]): Uint8Array {
  const parts = protocols.map((p) => new TextEncoder().encode(p));
  const out = new Uint8Array(parts.reduce((n, p) => n + 1 + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out[o++] = p.length;
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function clientContext(lib: Libssl, s: ClientSettings): SslContext {
  const ctx = lib.ssl.SSL_CTX_new(lib.ssl.TLS_client_method());
  if (ctx === null) fail(lib, s.path, "cannot create a TLS context");
  applyCommon(lib, ctx, s);
  if (s.trust) addTrust(lib, ctx, s.trust, s.path);
  // Pins and insecure check in openssl_conn after the handshake (or not at all): no CA check here.
  lib.ssl.SSL_CTX_set_verify(ctx, s.insecure || s.pins.length ? C.SSL_VERIFY_NONE : C.SSL_VERIFY_PEER, null);
  if (s.alpn.length) {
    const wire = alpnWire(s.alpn);
    if (lib.ssl.SSL_CTX_set_alpn_protos(ctx, wire, wire.length) !== 0) {
      fail(lib, `${s.path}/alpn`, "ALPN refused");
    }
  }
  if (s.clientCertificate && s.clientKey) {
    useCertificate(lib, ctx, s.clientCertificate, s.clientKey, `${s.path}/client_certificate`);
  }
  return { lib, ctx, callbacks: [] };
}

export function serverContext(lib: Libssl, s: ServerSettings): SslContext {
  const ctx = lib.ssl.SSL_CTX_new(lib.ssl.TLS_server_method());
  if (ctx === null) fail(lib, s.path, "cannot create a TLS context");
  const callbacks: { close(): void }[] = [];
  applyCommon(lib, ctx, s);
  useCertificate(lib, ctx, s.certificate, s.key, `${s.path}/certificate`);
  const sid = cstr("svc");
  lib.ssl.SSL_CTX_set_session_id_context(ctx, sid, sid.length - 1);
  if (s.alpn.length) callbacks.push(alpnSelect(lib, ctx, s.alpn));
  if (s.clientAuth !== "no") {
    if (s.clientCas.length) {
      const path = `${s.path}/client_certificate`;
      addTrust(lib, ctx, { store: "none", certificates: s.clientCas, path }, path);
    }
    const required = s.clientAuth === "require-any" || s.clientAuth === "require-and-verify";
    const mode = C.SSL_VERIFY_PEER | (required ? C.SSL_VERIFY_FAIL_IF_NO_PEER_CERT : 0);
    // "request"/"require-any" take any certificate, and pins without CAs check the key later.
    const acceptAny = s.clientAuth === "request" || s.clientAuth === "require-any" || !s.clientCas.length;
    if (acceptAny) {
      const cb = new Deno.UnsafeCallback({ parameters: ["i32", "pointer"], result: "i32" } as const, () => 1);
      callbacks.push(cb);
      lib.ssl.SSL_CTX_set_verify(ctx, mode, cb.pointer);
    } else {
      lib.ssl.SSL_CTX_set_verify(ctx, mode, null);
    }
  }
  return { lib, ctx, callbacks };
}

/** Server ALPN choice: the server's first protocol the client offers; none in common: no ALPN. */
function alpnSelect(lib: Libssl, ctx: Deno.PointerValue, protocols: string[]): { close(): void } {
  const wanted = protocols.map((p) => new TextEncoder().encode(p));
  const cb = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer", "pointer", "pointer", "u32", "pointer"], result: "i32" } as const,
    (_ssl, out, outLen, input, inputLen) => {
      if (out === null || outLen === null || input === null) return C.SSL_TLSEXT_ERR_NOACK;
      const offered = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(input, inputLen));
      for (const w of wanted) {
        for (let i = 0; i < offered.length; i += 1 + offered[i]) {
          const n = offered[i];
          if (n !== w.length || !w.every((b, j) => offered[i + 1 + j] === b)) continue;
          // *out points into the client's list (OpenSSL owns it); *outlen is one byte.
          const at = Deno.UnsafePointer.value(input) as bigint + BigInt(i + 1);
          new DataView(Deno.UnsafePointerView.getArrayBuffer(out, 8)).setBigUint64(0, at, true);
          new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(outLen, 1))[0] = n;
          return C.SSL_TLSEXT_ERR_OK;
        }
      }
      return C.SSL_TLSEXT_ERR_NOACK;
    },
  );
  lib.ssl.SSL_CTX_set_alpn_select_cb(ctx, cb.pointer, null);
  return cb;
}
