/** Small schema builders shared by the model files. */
import { z } from "zod";

/**
 * A field sing-box accepts as one value or an array of values ("listable"); the model always
 * holds an array.
 */
export function listable<T extends z.ZodType>(item: T, what: string) {
  return z
    .union([z.array(item), item], { error: `expected ${what}, or an array of them` })
    .transform((v): z.output<T>[] => (Array.isArray(v) ? v : [v]) as z.output<T>[]);
}

export const strings = (what = "a string") => listable(z.string(), what);

/** A TCP/UDP port number. */
export const port = () =>
  z.int({
    error: (iss) => iss.input === undefined ? undefined : "expected a port number (integer from 0 to 65535)",
  })
    .min(0, { error: "port must be from 0 to 65535" })
    .max(65535, { error: "port must be from 0 to 65535" });

/** A port a peer is reached on: 1-65535. */
export const serverPort = () =>
  z.int({
    error: (iss) => iss.input === undefined ? undefined : "expected a port number (integer from 1 to 65535)",
  })
    .min(1, { error: "port must be from 1 to 65535" })
    .max(65535, { error: "port must be from 1 to 65535" });

/** A positive integer. */
export const positiveInt = () => z.int().min(1, { error: "must be greater than zero" });

/** The four DNS address-family strategies. */
export const domainStrategy = () => z.enum(["prefer_ipv4", "prefer_ipv6", "ipv4_only", "ipv6_only"]);

/** Linux routing mark: an integer or a "0x…" hexadecimal string; the model holds the number. */
export const routingMark = () =>
  z.union([z.int().min(0), z.string()], {
    error: 'expected an integer or a hexadecimal string such as "0x1234"',
  })
    .transform((v, ctx) => {
      if (typeof v === "number") return v;
      const m = /^0x([0-9a-f]+)$/i.exec(v.trim());
      const n = m ? parseInt(m[1], 16) : /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
      if (!Number.isSafeInteger(n) || n > 0xffffffff) {
        ctx.addIssue({
          code: "custom",
          message: `invalid routing mark "${v}" (use an integer or "0x…" hexadecimal)`,
        });
        return z.NEVER;
      }
      return n;
    });

/** Network interface kinds used by network strategies and rules. */
export const networkKind = () => z.enum(["wifi", "cellular", "ethernet", "other"]);

export const networkStrategy = () => z.enum(["default", "hybrid", "fallback"]);

/** The fields every inbound, outbound, endpoint and DNS server starts with. */
export function typedShape<T extends string>(type: T) {
  return { type: z.literal(type), tag: z.string().min(1, { error: "tag must not be empty" }).optional() };
}

/** Fills `tag` with the type when unset (one place for this default). */
export function withTag<T extends { type: string; tag?: string }>(v: T): T & { tag: string } {
  return { ...v, tag: v.tag ?? v.type };
}

/** `tcp` or `udp`, as a listable field. */
export const networks = () => listable(z.enum(["tcp", "udp"]), '"tcp" or "udp"');

/** A string-keyed map of header values (one value or several). */
export const headers = () => z.record(z.string(), listable(z.string(), "a string"));
