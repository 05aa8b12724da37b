export { type TrackedConnection, Tracker, type TrackerOptions } from "./tracker.ts";
export { CountingConn } from "./counting_conn.ts";
