import { checkConfig, formatConfig, configJsonSchema } from "./src/config/mod.ts";
const show = (t: string) => { const r = checkConfig(t); console.log(r.errors.map((e) => `${e.message} [line ${e.line}]`), r.warnings); return r; };
show(`{
  "inbounds": [{"type": "mixed", "tag": "in"}, {"type": "socks", "tag": "in", "detour": "nope"}],
  "outbounds": [{"type": "direct", "tag": "a", "detour": "b"}, {"type": "direct", "tag": "b", "detour": "c"}, {"type": "direct", "tag": "c", "detour": "a", "domain_resolver": "dns-x"}],
  "route": {"rules": [{"outbound": "proxy", "domain": "x"}, {"action": "route", "outbound": "a"}, {"domain": "a", "sniffer": ["tls"], "outbound": "a"}, {"action": "sniff", "override_destination": true, "sniffer": "foo"}, {"action":"reject", "override_destination":"at_sniff", "inbound":"zz"}], "final": "x", "default_interface": "eth0", "auto_detect_interface": true, "default_network_strategy": "hybrid"},
  "dns": {"servers": [{"type": "udp", "server": "1.1.1.1"}, {"type":"race", "tag":"r", "servers":["udp", "r2"]}, {"type":"sequential", "tag":"r2", "servers":["r"]}], "rules": [{"domain":"a", "server": "nope"}, {"action":"predefined", "server": "udp"}, {"match_response": "ev", "action":"respond"}], "final": "zz"},
  "api": {"listen": "0.0.0.0:9090"},
  "user_limits": {"alice": {"quota_bytes": 100}},
  "experimental": {"clash_api": {"external_controller": "127.0.0.1:9090"}},
  "compat_api": {}
}`);
show(`{"user_limits": {"alice": {"quota_bytes": 100}}, "experimental": {"clash_api": {"external_ui_download_detour": "q"}}}`);
console.log(formatConfig(`{"log": {"level": "debug"}, /* c */ "user_limits": {"9": {"max_connections": 2}, "1": {}},}`));
console.log(JSON.stringify(configJsonSchema()).length);
