export { tlsClient, type TlsClientOptions, type TlsConn } from "./client.ts";
