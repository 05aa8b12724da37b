/** DNS servers by `type` (sing-box 1.12+ typed servers, plus our `race` and `sequential`). */
import { z } from "zod";
import { headers, listable, serverPort, strings, typedShape, withTag } from "./common.ts";
import { dialShape } from "./dial.ts";
import { Tls } from "./tls.ts";

const remote = (defaultPort: number) => ({
  ...dialShape,
  server: z.string(),
  server_port: serverPort().default(defaultPort),
});

export const UdpDnsServer = z.strictObject({ ...typedShape("udp"), ...remote(53) }).transform(withTag);
export const TcpDnsServer = z.strictObject({ ...typedShape("tcp"), ...remote(53) }).transform(withTag);
export const TlsDnsServer = z.strictObject({ ...typedShape("tls"), ...remote(853), tls: Tls.optional() })
  .transform(
    withTag,
  );
export const QuicDnsServer = z.strictObject({ ...typedShape("quic"), ...remote(853), tls: Tls.optional() })
  .transform(withTag);

const httpShape = {
  ...remote(443),
  path: z.string().default("/dns-query"),
  headers: headers().optional(),
  tls: Tls.optional(),
};
export const HttpsDnsServer = z.strictObject({ ...typedShape("https"), ...httpShape }).transform(withTag);
export const H3DnsServer = z.strictObject({ ...typedShape("h3"), ...httpShape }).transform(withTag);

export const LocalDnsServer = z.strictObject({
  ...typedShape("local"),
  ...dialShape,
  prefer_go: z.boolean().optional(),
})
  .transform(withTag);

export const HostsDnsServer = z
  .strictObject({
    ...typedShape("hosts"),
    /** Hosts files; the system's when unset. */
    path: strings("a file path").optional(),
    predefined: z.record(z.string(), listable(z.string(), "an address")).optional(),
  })
  .transform(withTag);

export const FakeIpDnsServer = z
  .strictObject({
    ...typedShape("fakeip"),
    inet4_range: z.string().optional(),
    inet6_range: z.string().optional(),
  })
  .transform(withTag);

export const MdnsDnsServer = z
  .strictObject({
    ...typedShape("mdns"),
    /** Interface names; every multicast interface when empty. */
    interface: strings("an interface name").default([]),
  })
  .transform(withTag);

const members = () =>
  strings("a DNS server tag").refine((v) => v.length > 0, { error: "needs at least one server" });

/** Extension: asks every member at once and takes the first good answer. */
export const RaceDnsServer = z.strictObject({ ...typedShape("race"), servers: members() }).transform(withTag);
/** Extension: asks members one after another until one answers. */
export const SequentialDnsServer = z.strictObject({ ...typedShape("sequential"), servers: members() })
  .transform(
    withTag,
  );

export const DnsServer = z.discriminatedUnion("type", [
  UdpDnsServer,
  TcpDnsServer,
  TlsDnsServer,
  QuicDnsServer,
  HttpsDnsServer,
  H3DnsServer,
  LocalDnsServer,
  HostsDnsServer,
  FakeIpDnsServer,
  MdnsDnsServer,
  RaceDnsServer,
  SequentialDnsServer,
]);

export type DnsServerModel = z.output<typeof DnsServer>;
