/** Small helpers the transports share: abort handling, dial metadata, error wrapping. */
import type { Address, Metadata } from "../../adapter/mod.ts";
import { DnsError, errorText } from "../../common/errors.ts";
import { joinHostPort } from "../../common/address.ts";

/** The DnsError for an aborted query: "timed out" when the signal's reason is a timeout. */
export function abortError(signal: AbortSignal, what: string): DnsError {
  const reason = signal.reason;
  if (reason instanceof DnsError) return reason;
  const timeout = reason instanceof DOMException && reason.name === "TimeoutError";
  return new DnsError(`${what}: ${timeout ? "timed out" : "aborted"}`, { cause: reason });
}

/** Wraps any failure into a DnsError naming `what`; DnsErrors pass unchanged. */
export function asDnsError(e: unknown, what: string): DnsError {
  if (e instanceof DnsError) return e;
  return new DnsError(`${what}: ${errorText(e)}`, { cause: e });
}

/**
 * Settles with `p`, or rejects with a DnsError once `signal` aborts (`p` may go on; `onLate`
 * disposes of a value that arrives after the abort).
 */
export function abortable<T>(
  p: Promise<T>,
  signal: AbortSignal,
  what: string,
  onLate?: (v: T) => void,
): Promise<T> {
  if (signal.aborted) {
    p.then((v) => onLate?.(v), () => {});
    return Promise.reject(abortError(signal, what));
  }
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const onAbort = () => {
      if (done) return;
      done = true;
      reject(abortError(signal, what));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    p.then((v) => {
      signal.removeEventListener("abort", onAbort);
      if (done) return onLate?.(v);
      done = true;
      resolve(v);
    }, (e) => {
      signal.removeEventListener("abort", onAbort);
      if (done) return;
      done = true;
      reject(asDnsError(e, what));
    });
  });
}

/** Metadata for the dialer of a DNS server's connection. */
export function dnsMetadata(tag: string, destination: Address, network: "tcp" | "udp"): Metadata {
  return {
    inbound: `dns:${tag}`,
    inboundType: "dns",
    network,
    source: { host: "0.0.0.0", port: 0 },
    destination,
  };
}

export function describe(type: string, addr: Address): string {
  return `DNS ${type} ${joinHostPort(addr.host, addr.port)}`;
}

/** Same host, ignoring IPv4-mapped IPv6 and case. */
export function sameHost(a: string, b: string): boolean {
  const norm = (h: string) => {
    const l = h.toLowerCase();
    return l.startsWith("::ffff:") && l.includes(".") ? l.slice(7) : l;
  };
  return norm(a) === norm(b);
}
