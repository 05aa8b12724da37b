/** Clash's general keys: listeners from the port keys, log level, mode, controller, profile. */
import { asBool, asInt, asList, asString, Conversion, isRecord } from "./conversion.ts";

type Json = Record<string, unknown>;

const LOG_LEVELS: Record<string, string> = {
  debug: "debug",
  info: "info",
  warning: "warn",
  error: "error",
};

/** The port keys and the inbound each becomes (tag, type). */
const PORT_KEYS: [key: string, type: string, tag: string][] = [
  ["mixed-port", "mixed", "mixed-in"],
  ["port", "http", "http-in"],
  ["socks-port", "socks", "socks-in"],
  ["redir-port", "redirect", "redir-in"],
  ["tproxy-port", "tproxy", "tproxy-in"],
];

/** Where Clash listeners bind: loopback unless allow-lan; `*` is every address. */
function listenAddress(c: Json): string {
  if (asBool(c["allow-lan"]) !== true) return "127.0.0.1";
  const bind = asString(c["bind-address"]);
  return !bind || bind === "*" ? (asBool(c.ipv6) === false ? "0.0.0.0" : "::") : bind;
}

export function convertGeneral(c: Json, cv: Conversion): void {
  const listen = listenAddress(c);
  const users = asList(c.authentication).flatMap((entry, i) => {
    const text = asString(entry);
    const colon = text?.indexOf(":") ?? -1;
    if (!text || colon <= 0) {
      cv.error(["authentication", i], 'expected "user:password"');
      return [];
    }
    return [{ username: text.slice(0, colon), password: text.slice(colon + 1) }];
  });
  for (const [key, type, tag] of PORT_KEYS) {
    if (c[key] === undefined || c[key] === 0) continue;
    const port = asInt(c[key]);
    if (port === undefined) {
      cv.error([key], "expected a port number");
      continue;
    }
    const inbound: Json = { type, tag: cv.uniqueInboundTag(tag), listen, listen_port: port };
    if (users.length && ["mixed", "http", "socks"].includes(type)) inbound.users = users;
    cv.push(["inbounds"], inbound, [key]);
  }

  const level = asString(c["log-level"]);
  if (level !== undefined) {
    if (level === "silent") cv.set(["log", "disabled"], true, ["log-level"]);
    else if (LOG_LEVELS[level]) cv.set(["log", "level"], LOG_LEVELS[level], ["log-level"]);
    else {cv.error(
        ["log-level"],
        `unknown log level "${level}": expected silent, error, warning, info or debug`,
      );}
  }

  convertController(c, cv);
  const profile = c.profile;
  if (isRecord(profile)) {
    if (asBool(profile["store-selected"]) || asBool(profile["store-fake-ip"])) {
      cv.set(["experimental", "cache_file"], { enabled: true }, ["profile"]);
    }
  }
}

function convertController(c: Json, cv: Conversion): void {
  const api: Json = {};
  const ctl = asString(c["external-controller"]);
  if (ctl) api.external_controller = ctl;
  const secret = asString(c.secret);
  if (secret) api.secret = secret;
  const ui = asString(c["external-ui"]);
  if (ui) api.external_ui = ui;
  const uiUrl = asString(c["external-ui-url"]);
  if (uiUrl) api.external_ui_download_url = uiUrl;
  const cors = c["external-controller-cors"];
  if (isRecord(cors)) {
    const origins = asList(cors["allow-origins"]).map(asString).filter((o): o is string => !!o);
    if (origins.length && !origins.includes("*")) api.access_control_allow_origin = origins;
    if (asBool(cors["allow-private-network"])) api.access_control_allow_private_network = true;
  }
  const mode = asString(c.mode)?.toLowerCase();
  if (mode !== undefined) {
    const modes: Record<string, string> = { rule: "Rule", global: "Global", direct: "Direct" };
    if (modes[mode]) api.default_mode = modes[mode];
    else cv.error(["mode"], `unknown mode "${c.mode}": expected rule, global or direct`);
  }
  if (Object.keys(api).length) cv.set(["compat_api"], api, ctl ? ["external-controller"] : ["mode"]);
}
