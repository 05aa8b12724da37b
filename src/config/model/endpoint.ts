/**
 * Endpoints (an inbound and an outbound under one tag). Only `wireguard` exists and it is not
 * implemented yet: the loader reports it before this schema is consulted, so the schema only
 * names the type.
 */
import { z } from "zod";
import { typedShape, withTag } from "./common.ts";

export const WireguardEndpoint = z.strictObject({ ...typedShape("wireguard") }).transform(withTag);

export const Endpoint = z.discriminatedUnion("type", [WireguardEndpoint]);
export type EndpointModel = z.output<typeof Endpoint>;
