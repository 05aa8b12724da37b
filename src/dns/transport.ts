/** The contract every DNS server type implements (src/dns/servers/<type>.ts). */
export interface DnsTransport {
  readonly tag: string;
  readonly type: string;
  /** Sends one DNS query message (wire form, any id) and resolves to the response message (wire form, id matching the query's). Rejects with DnsError (src/common/errors.ts) on timeout, network error or a malformed/truncated response; never hangs past `signal`. */
  exchange(query: Uint8Array, signal: AbortSignal): Promise<Uint8Array>;
  close(): void;
  /** Whether the server answers `name` by itself (its hosts entries, mDNS names): what `preferred_by` matches. */
  owns?(name: string): boolean;
}
