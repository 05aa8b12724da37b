/** Bounds a handshake by time and an optional abort signal; `onExpire` tears the connection down. */
import { ProtocolError } from "../common/errors.ts";

export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  onExpire: () => void,
): Promise<T> {
  if (signal?.aborted) {
    onExpire();
    return Promise.reject(signal.reason ?? new ProtocolError("TLS handshake aborted"));
  }
  return new Promise<T>((resolve, reject) => {
    const stop = (error: unknown) => {
      cleanup();
      onExpire();
      reject(error);
    };
    const timer = setTimeout(() => stop(new ProtocolError(`TLS handshake timed out after ${ms} ms`)), ms);
    const onAbort = () => stop(signal?.reason ?? new ProtocolError("TLS handshake aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    work.then((v) => {
      cleanup();
      resolve(v);
    }, (e) => {
      cleanup();
      reject(e);
    });
  });
}
