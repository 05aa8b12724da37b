/** Text forms of host:port pairs, with IPv6 bracketed. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Splits "host:port", "[v6]:port"; returns undefined when malformed. */
export function splitHostPort(text: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text) ?? /^([^:]+):(\d{1,5})$/.exec(text);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port > 65535) return undefined;
  return { host: m[1], port };
}
