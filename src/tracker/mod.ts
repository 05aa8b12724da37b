export { type TrackedConnection, Tracker, type TrackerOptions } from "./tracker.ts";
