/** The release of svc, shown by `svc version` and the APIs. */
export const VERSION = "0.1.0";
