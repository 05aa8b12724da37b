/**
 * The few libc calls the batched UDP socket needs, opened with Deno.dlopen. Linux only (the
 * struct layouts in udp_batch.ts are Linux x86_64/aarch64 ones). `libc()` is a memoized
 * capability probe: undefined when FFI is not allowed or the library is missing, and callers
 * fall back to Deno's own sockets.
 */

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  recvmmsg: { parameters: ["i32", "buffer", "u32", "i32", "pointer"], result: "i32" },
  sendmmsg: { parameters: ["i32", "buffer", "u32", "i32"], result: "i32" },
  // Runs on a worker thread (a promise per call), so a wait never blocks the event loop.
  poll: { parameters: ["buffer", "u64", "i32"], result: "i32", nonblocking: true },
  eventfd: { parameters: ["u32", "i32"], result: "i32" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

export type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

export const AF_INET = 2;
export const AF_INET6 = 10;
export const SOCK_DGRAM = 2;
export const SOCK_NONBLOCK = 0o4000;
export const SOCK_CLOEXEC = 0o2000000;
export const MSG_DONTWAIT = 0x40;
export const EFD_NONBLOCK = 0o4000;
export const EFD_CLOEXEC = 0o2000000;
export const POLLIN = 0x1;
export const EAGAIN = 11;

let probed = false;
let lib: Libc | undefined;

/** libc's symbols, or undefined where they cannot be had (not Linux, no --allow-ffi, no library). */
export function libc(): Libc | undefined {
  if (probed) return lib;
  probed = true;
  if (Deno.build.os !== "linux" || !["x86_64", "aarch64"].includes(Deno.build.arch)) return undefined;
  try {
    // SVC_NO_FFI=1 forces Deno's sockets (benchmarks compare both; tests cover the fallback).
    if (Deno.permissions.querySync({ name: "env", variable: "SVC_NO_FFI" }).state === "granted") {
      if (Deno.env.get("SVC_NO_FFI") === "1") return undefined;
    }
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return undefined;
    lib = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  } catch {
    lib = undefined;
  }
  return lib;
}

/** errno of the last failed call on this thread (read right after the call). */
export function errno(c: Libc): number {
  const p = c.__errno_location();
  return p ? new Deno.UnsafePointerView(p).getInt32() : 0;
}
