/**
 * The system OpenSSL 3 (libssl + libcrypto) through Deno.dlopen: the calls a TLS engine over
 * memory BIOs needs. Loaded at most once per process (a memoized capability probe): needs
 * --allow-ffi and the libraries, else `loadLibssl()` returns null and TLS falls back to Deno's
 * rustls (src/tls/rustls.ts), which refuses the fields it cannot honour.
 *
 * All symbols are synchronous; byte arguments are "buffer" (Uint8Array) so V8 takes Deno's fast
 * call path (~0.6 µs a call measured here, small beside a 16 KiB record).
 */

const SSL_SYMBOLS = {
  TLS_client_method: { parameters: [], result: "pointer" },
  TLS_server_method: { parameters: [], result: "pointer" },
  SSL_CTX_new: { parameters: ["pointer"], result: "pointer" },
  SSL_CTX_free: { parameters: ["pointer"], result: "void" },
  /** (ctx, cmd, larg, parg as bytes): min/max version, groups list, mode. */
  SSL_CTX_ctrl: { parameters: ["pointer", "i32", "i64", "buffer"], result: "i64" },
  /** SSL_CTX_ctrl with a pointer argument: add a chain certificate. */
  SSL_CTX_ctrl_ptr: { name: "SSL_CTX_ctrl", parameters: ["pointer", "i32", "i64", "pointer"], result: "i64" },
  SSL_CTX_set_options: { parameters: ["pointer", "u64"], result: "u64" },
  SSL_CTX_set_verify: { parameters: ["pointer", "i32", "function"], result: "void" },
  SSL_CTX_get_cert_store: { parameters: ["pointer"], result: "pointer" },
  SSL_CTX_set_default_verify_paths: { parameters: ["pointer"], result: "i32" },
  SSL_CTX_get0_param: { parameters: ["pointer"], result: "pointer" },
  SSL_CTX_set_cipher_list: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_CTX_set_ciphersuites: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_CTX_set_alpn_protos: { parameters: ["pointer", "buffer", "u32"], result: "i32" },
  SSL_CTX_set_alpn_select_cb: { parameters: ["pointer", "function", "pointer"], result: "void" },
  SSL_CTX_use_certificate: { parameters: ["pointer", "pointer"], result: "i32" },
  SSL_CTX_use_PrivateKey: { parameters: ["pointer", "pointer"], result: "i32" },
  SSL_CTX_check_private_key: { parameters: ["pointer"], result: "i32" },
  SSL_CTX_set_session_id_context: { parameters: ["pointer", "buffer", "u32"], result: "i32" },
  OPENSSL_cipher_name: { parameters: ["buffer"], result: "pointer" },
  SSL_new: { parameters: ["pointer"], result: "pointer" },
  SSL_free: { parameters: ["pointer"], result: "void" },
  SSL_set_bio: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
  SSL_set_connect_state: { parameters: ["pointer"], result: "void" },
  SSL_set_accept_state: { parameters: ["pointer"], result: "void" },
  SSL_do_handshake: { parameters: ["pointer"], result: "i32" },
  SSL_read: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_write: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_shutdown: { parameters: ["pointer"], result: "i32" },
  SSL_get_error: { parameters: ["pointer", "i32"], result: "i32" },
  /** (ssl, cmd, larg, parg as bytes): the SNI host name. */
  SSL_ctrl: { parameters: ["pointer", "i32", "i64", "buffer"], result: "i64" },
  SSL_set_alpn_protos: { parameters: ["pointer", "buffer", "u32"], result: "i32" },
  SSL_set1_host: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_get_verify_result: { parameters: ["pointer"], result: "i64" },
  /** (ssl, const unsigned char **data, unsigned int *len). */
  SSL_get0_alpn_selected: { parameters: ["pointer", "buffer", "buffer"], result: "void" },
  SSL_get_servername: { parameters: ["pointer", "i32"], result: "pointer" },
  SSL_get1_peer_certificate: { parameters: ["pointer"], result: "pointer" },
  SSL_version: { parameters: ["pointer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

const CRYPTO_SYMBOLS = {
  BIO_s_mem: { parameters: [], result: "pointer" },
  BIO_new: { parameters: ["pointer"], result: "pointer" },
  BIO_free: { parameters: ["pointer"], result: "i32" },
  BIO_read: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  BIO_write: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  BIO_ctrl: { parameters: ["pointer", "i32", "i64", "pointer"], result: "i64" },
  PEM_read_bio_X509: { parameters: ["pointer", "pointer", "pointer", "pointer"], result: "pointer" },
  PEM_read_bio_PrivateKey: { parameters: ["pointer", "pointer", "pointer", "pointer"], result: "pointer" },
  X509_free: { parameters: ["pointer"], result: "void" },
  EVP_PKEY_free: { parameters: ["pointer"], result: "void" },
  X509_STORE_add_cert: { parameters: ["pointer", "pointer"], result: "i32" },
  X509_VERIFY_PARAM_set_flags: { parameters: ["pointer", "u64"], result: "i32" },
  X509_get_X509_PUBKEY: { parameters: ["pointer"], result: "pointer" },
  /** (pubkey, unsigned char **out): DER SubjectPublicKeyInfo; out advances past it; null out: length. */
  i2d_X509_PUBKEY: { parameters: ["pointer", "buffer"], result: "i32" },
  X509_verify_cert_error_string: { parameters: ["i64"], result: "pointer" },
  ERR_get_error: { parameters: [], result: "u64" },
  ERR_error_string_n: { parameters: ["u64", "buffer", "usize"], result: "void" },
  ERR_clear_error: { parameters: [], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

export type SslSymbols = Deno.DynamicLibrary<typeof SSL_SYMBOLS>["symbols"];
export type CryptoSymbols = Deno.DynamicLibrary<typeof CRYPTO_SYMBOLS>["symbols"];

export interface Libssl {
  readonly ssl: SslSymbols;
  readonly crypto: CryptoSymbols;
  /** BIO_s_mem(), fetched once. */
  readonly memMethod: Deno.PointerValue;
}

/** Constants from openssl/ssl.h, bio.h and x509_vfy.h (stable ABI values). */
export const C = {
  SSL_CTRL_MODE: 33,
  SSL_CTRL_SET_TLSEXT_HOSTNAME: 55,
  SSL_CTRL_CHAIN_CERT: 89,
  SSL_CTRL_SET_GROUPS_LIST: 92,
  SSL_CTRL_SET_MIN_PROTO_VERSION: 123,
  SSL_CTRL_SET_MAX_PROTO_VERSION: 124,
  SSL_OP_IGNORE_UNEXPECTED_EOF: 1n << 7n,
  SSL_OP_NO_RENEGOTIATION: 1n << 30n,
  SSL_VERIFY_NONE: 0,
  SSL_VERIFY_PEER: 1,
  SSL_VERIFY_FAIL_IF_NO_PEER_CERT: 2,
  SSL_ERROR_SSL: 1,
  SSL_ERROR_WANT_READ: 2,
  SSL_ERROR_SYSCALL: 5,
  SSL_ERROR_ZERO_RETURN: 6,
  SSL_TLSEXT_ERR_OK: 0,
  SSL_TLSEXT_ERR_NOACK: 3,
  BIO_CTRL_PENDING: 10,
  BIO_C_SET_BUF_MEM_EOF_RETURN: 130,
  X509_V_OK: 0n,
  X509_V_FLAG_PARTIAL_CHAIN: 0x80000n,
} as const;

export const TLS_VERSIONS: Record<string, number> = {
  "1.0": 0x301,
  "1.1": 0x302,
  "1.2": 0x303,
  "1.3": 0x304,
};

const CANDIDATES: Record<string, [string, string][]> = {
  linux: [["libssl.so.3", "libcrypto.so.3"]],
  darwin: [
    ["libssl.3.dylib", "libcrypto.3.dylib"],
    ["/opt/homebrew/opt/openssl@3/lib/libssl.3.dylib", "/opt/homebrew/opt/openssl@3/lib/libcrypto.3.dylib"],
    ["/usr/local/opt/openssl@3/lib/libssl.3.dylib", "/usr/local/opt/openssl@3/lib/libcrypto.3.dylib"],
  ],
  windows: [["libssl-3-x64.dll", "libcrypto-3-x64.dll"]],
};

let probed: { lib: Libssl | null } | undefined; // memoized probe: the one sanctioned module state

/** The loaded libraries, or null when FFI is not allowed or OpenSSL 3 is missing. Probes once. */
export function loadLibssl(): Libssl | null {
  if (probed) return probed.lib;
  probed = { lib: probe() };
  return probed.lib;
}

function probe(): Libssl | null {
  // Ask first: dlopen without the permission would prompt on a terminal instead of failing.
  if (Deno.permissions.querySync?.({ name: "ffi" }).state !== "granted") return null;
  for (const [sslPath, cryptoPath] of CANDIDATES[Deno.build.os] ?? CANDIDATES.linux) {
    try {
      const crypto = Deno.dlopen(cryptoPath, CRYPTO_SYMBOLS).symbols;
      const ssl = Deno.dlopen(sslPath, SSL_SYMBOLS).symbols;
      return { ssl, crypto, memMethod: crypto.BIO_s_mem() };
    } catch {
      // try the next pair
    }
  }
  return null;
}

const cstr = (s: string) => new TextEncoder().encode(s + "\0");
export { cstr };

/** Drains OpenSSL's error queue into one line ("" when empty). */
export function opensslErrors(lib: Libssl): string {
  const out: string[] = [];
  const buf = new Uint8Array(256);
  for (let e = lib.crypto.ERR_get_error(); e !== 0n; e = lib.crypto.ERR_get_error()) {
    lib.crypto.ERR_error_string_n(e, buf, BigInt(buf.length));
    const text = new TextDecoder().decode(buf.subarray(0, buf.indexOf(0)));
    // "error:0A000086:SSL routines::certificate verify failed" -> the reason after the last colon
    out.push(text.slice(text.lastIndexOf(":") + 1) || text);
  }
  return out.join("; ");
}

export function cString(p: Deno.PointerValue): string | undefined {
  return p === null ? undefined : Deno.UnsafePointerView.getCString(p);
}
