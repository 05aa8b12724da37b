/**
 * The top-level object, and the one place that fills defaults which depend on several objects:
 * tags (in each item schema), `route.final`, `dns.final`, the compat API location, and interface
 * detection turned on by a TUN inbound with `auto_route`.
 */
import { z } from "zod";
import { Api, CompatApi } from "./api.ts";
import { Certificate } from "./certificate.ts";
import { Dns } from "./dns.ts";
import { Endpoint } from "./endpoint.ts";
import { Experimental, type ExperimentalModel } from "./experimental.ts";
import { HttpClientItem } from "./http_clients.ts";
import { Inbound } from "./inbound.ts";
import { Log } from "./log.ts";
import { Ntp } from "./ntp.ts";
import { Outbound } from "./outbound.ts";
import { OutboundProvider } from "./providers.ts";
import { Route } from "./route.ts";
import { UserLimits } from "./user_limits.ts";

/** Input only: the loader drops `api` services with a warning and refuses the others. */
const Service = z.looseObject({ type: z.string(), tag: z.string().optional() });

export const TopInput = z.strictObject({
  $schema: z.string().optional(),
  log: Log.prefault({}),
  dns: Dns.prefault({}),
  ntp: Ntp.optional(),
  certificate: Certificate.prefault({}),
  http_clients: z.array(HttpClientItem).default([]),
  endpoints: z.array(Endpoint).default([]),
  inbounds: z.array(Inbound).default([]),
  outbounds: z.array(Outbound).default([]),
  route: Route.prefault({}),
  services: z.array(Service).optional(),
  experimental: Experimental.optional(),
  api: Api.optional(),
  compat_api: CompatApi.optional(),
  outbound_providers: z.array(OutboundProvider).default([]),
  user_limits: UserLimits.default({}),
});

export const Top = TopInput.transform((v) => {
  const { services: _services, experimental, compat_api, ...rest } = v;
  // Validation rule 8 (one compat API object) is checked on the document by the loader, which
  // has the paths; here the object is only moved to the top level.
  const exp: ExperimentalModel = {};
  if (experimental?.cache_file) exp.cache_file = experimental.cache_file;
  // Validation rule 7: a TUN inbound with auto_route detects the interface by itself.
  const tunAutoRoute = rest.inbounds.some((i) =>
    (i as { type: string }).type === "tun" && (i as { auto_route?: boolean }).auto_route === true
  );
  return {
    ...rest,
    experimental: exp,
    compat_api: compat_api ?? experimental?.compat_api ?? experimental?.clash_api,
    route: {
      ...rest.route,
      final: rest.route.final ?? rest.outbounds[0]?.tag,
      auto_detect_interface: rest.route.auto_detect_interface || tunAutoRoute,
    },
    dns: { ...rest.dns, final: rest.dns.final ?? rest.dns.servers[0]?.tag },
  };
});

export type Model = z.output<typeof Top>;
