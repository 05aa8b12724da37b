/** Metadata for rule tests. */
import type { Metadata } from "../../adapter/metadata.ts";

export function meta(over: Partial<Metadata> = {}): Metadata {
  return {
    inbound: "in",
    inboundType: "mixed",
    network: "tcp",
    source: { host: "192.168.1.10", port: 50000 },
    destination: { host: "example.com", port: 443 },
    ...over,
  };
}

/** Metadata with destination `host:port`. */
export function to(host: string, port = 443, over: Partial<Metadata> = {}): Metadata {
  return meta({ destination: { host, port }, ...over });
}
