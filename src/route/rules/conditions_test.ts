import { equal, ok, throws } from "node:assert/strict";
import { ConfigError, UnsupportedError } from "../../common/errors.ts";
import { compileRule } from "./compile.ts";
import { parsePortRange } from "./port.ts";
import { meta, to } from "./test_util.ts";
import type { RuleInput } from "./types.ts";

const matches = (rule: RuleInput) => {
  const m = compileRule(rule);
  return m.match.bind(m);
};

Deno.test("inbound, network, auth_user, protocol, client are exact sets", () => {
  ok(matches({ inbound: ["a", "in"] })(meta()));
  ok(!matches({ inbound: ["a"] })(meta()));
  ok(matches({ network: ["udp"] })(meta({ network: "udp" })));
  ok(!matches({ network: ["udp"] })(meta()));
  ok(matches({ auth_user: ["alice", "bob"] })(meta({ user: "bob" })));
  ok(!matches({ auth_user: ["alice"] })(meta()));
  ok(!matches({ auth_user: ["alice"] })(meta({ user: "Alice" })));
  ok(matches({ protocol: ["tls", "quic"] })(meta({ protocol: "quic" })));
  ok(!matches({ protocol: ["tls"] })(meta()));
  ok(matches({ client: ["chromium"] })(meta({ client: "chromium" })));
  ok(!matches({ client: ["chromium"] })(meta({ client: "firefox" })));
});

Deno.test("ip_version looks at an IP destination, else the original destination", () => {
  const v4 = matches({ ip_version: 4 });
  const v6 = matches({ ip_version: 6 });
  ok(v4(to("1.1.1.1")));
  ok(!v6(to("1.1.1.1")));
  ok(v6(to("2606:4700::1111")));
  ok(v4(to("::ffff:1.1.1.1")));
  ok(!v4(to("example.com")));
  ok(!v6(to("example.com")));
  ok(v6(to("example.com", 443, { originalDestination: { host: "2001:db8::1", port: 443 } })));
  throws(() => compileRule({ ip_version: 5 }), (e) => e instanceof ConfigError && e.path === "/ip_version");
});

Deno.test("domain items use the sniffed name, else the requested one (sing-box's order)", () => {
  const rule = matches({ domain_suffix: ["example.com"] });
  ok(rule(to("www.example.com")));
  ok(rule(to("WWW.EXAMPLE.COM.")));
  ok(!rule(to("1.2.3.4")));
  ok(rule(to("1.2.3.4", 443, { sniffedDomain: "cdn.example.com" })));
  ok(rule(to("other.org", 443, { sniffedDomain: "cdn.example.com" })));
  ok(!rule(to("www.example.com", 443, { sniffedDomain: "other.org" })));
  ok(!rule(to("2001:db8::1")));
});

Deno.test("domain, domain_suffix, domain_keyword and domain_regex OR together", () => {
  const rule = matches({
    domain: ["exact.test"],
    domain_suffix: [".sub.test"],
    domain_keyword: ["kw"],
    domain_regex: ["^r\\d+\\.test$"],
  });
  ok(rule(to("exact.test")));
  ok(!rule(to("www.exact.test")));
  ok(rule(to("a.sub.test")));
  ok(!rule(to("sub.test")));
  ok(rule(to("xkwx.org")));
  ok(rule(to("r42.test")));
  ok(!rule(to("r42.test.org")));
  ok(!rule(to("none.org")));
});

Deno.test("domain items refuse empty values and bad regexes with a path", () => {
  throws(() => compileRule({ domain: ["a", ""] }, { path: "/route/rules/2" }), (e) => {
    ok(e instanceof ConfigError);
    equal(e.path, "/route/rules/2/domain/1");
    return true;
  });
  throws(() => compileRule({ domain_suffix: [""] }), ConfigError);
  throws(
    () => compileRule({ domain_regex: ["(a"] }),
    (e) => e instanceof ConfigError && e.path === "/domain_regex/0",
  );
  throws(() => compileRule({ domain_regex: ["(a+)+$"] }), /catastrophically/);
});

Deno.test("ip_cidr uses an IP destination, else any resolved address", () => {
  const rule = matches({ ip_cidr: ["10.0.0.0/8", "2001:db8::/32"] });
  ok(rule(to("10.1.2.3")));
  ok(rule(to("::ffff:10.1.2.3")));
  ok(rule(to("2001:db8::5")));
  ok(!rule(to("11.0.0.1")));
  ok(!rule(to("example.com")));
  ok(rule(to("example.com", 443, { resolvedAddresses: ["8.8.8.8", "10.9.9.9"] })));
  ok(!rule(to("example.com", 443, { resolvedAddresses: ["8.8.8.8", "bogus"] })));
  ok(!rule(to("example.com", 443, { resolvedAddresses: [] })));
  // An IP destination is judged alone, as sing-box does (rule_item_cidr.go).
  ok(!rule(to("8.8.8.8", 443, { resolvedAddresses: ["10.0.0.1"] })));
});

Deno.test("ip_cidr refuses bad prefixes and the address/mask form", () => {
  throws(
    () => compileRule({ ip_cidr: ["1.2.3.4/33"] }),
    (e) => e instanceof ConfigError && e.path === "/ip_cidr/0",
  );
  throws(() => compileRule({ ip_cidr: ["::1/::ffff"] }), UnsupportedError);
});

Deno.test("ip_is_private and source_ip_is_private", () => {
  const dest = matches({ ip_is_private: true });
  ok(dest(to("192.168.0.1")));
  ok(dest(to("fe80::1")));
  ok(!dest(to("8.8.8.8")));
  ok(dest(to("nas.lan", 443, { resolvedAddresses: ["8.8.8.8", "10.0.0.2"] })));
  ok(!dest(to("nas.lan")));
  const src = matches({ source_ip_is_private: true });
  ok(src(meta()));
  ok(!src(meta({ source: { host: "203.0.113.9", port: 1 } })));
  ok(!src(meta({ source: { host: "not-an-ip", port: 1 } })));
  // false is "not set", as in sing-box: the rule has no condition and matches everything.
  ok(compileRule({ ip_is_private: false }).conditionCount === 0);
});

Deno.test("source_ip_cidr matches the source address", () => {
  const rule = matches({ source_ip_cidr: ["192.168.1.0/24", "fd00::/8"] });
  ok(rule(meta()));
  ok(rule(meta({ source: { host: "fd00::2", port: 1 } })));
  ok(rule(meta({ source: { host: "::ffff:192.168.1.2", port: 1 } })));
  ok(!rule(meta({ source: { host: "192.168.2.1", port: 1 } })));
});

Deno.test("ports and port ranges, with bounds", () => {
  const port = matches({ port: [80, 443] });
  ok(port(to("a.test", 443)));
  ok(!port(to("a.test", 8443)));
  const range = matches({ port_range: ["1000:2000", ":10", "60000:"] });
  for (const p of [0, 10, 1000, 1500, 2000, 60000, 65535]) ok(range(to("a.test", p)), String(p));
  for (const p of [11, 999, 2001, 59999]) ok(!range(to("a.test", p)), String(p));
  const src = matches({ source_port: [50000] });
  ok(src(meta()));
  ok(!matches({ source_port_range: ["1:49999"] })(meta()));
  ok(matches({ source_port_range: ["50000:50000"] })(meta()));
  ok(!matches({ port_range: ["2000:1000"] })(to("a.test", 1500)));
});

Deno.test("parsePortRange follows sing-box", () => {
  equal(JSON.stringify(parsePortRange("1000:2000")), "[1000,2000]");
  equal(JSON.stringify(parsePortRange(":3000")), "[0,3000]");
  equal(JSON.stringify(parsePortRange("4000:")), "[4000,65535]");
  equal(JSON.stringify(parsePortRange(":")), "[0,65535]");
  for (const bad of ["1000", "a:b", "1:65536", "-1:5", "1:2:3", " 1:2"]) {
    equal(parsePortRange(bad), undefined, bad);
  }
  throws(
    () => compileRule({ port_range: ["80"] }),
    (e) => e instanceof ConfigError && e.path === "/port_range/0",
  );
  throws(() => compileRule({ port: [70000] }), (e) => e instanceof ConfigError && e.path === "/port/0");
});

Deno.test("conditions the runtime cannot do yet throw UnsupportedError", () => {
  const cases: Record<string, unknown> = {
    process_name: ["curl"],
    package_name: ["com.x"],
    user: ["root"],
    user_id: [0],
    compat_mode: "direct",
    clash_mode: "direct",
    network_type: ["wifi"],
    network_is_expensive: true,
    wifi_ssid: ["home"],
    preferred_by: ["ts"],
    source_mac_address: ["00:11:22:33:44:55"],
    source_hostname: ["pc"],
    geoip: ["cn"],
    geosite: ["cn"],
    ip_asn: [13335],
    external: ["site:x:y"],
    interface_address: { en0: ["10.0.0.0/8"] },
  };
  for (const [field, value] of Object.entries(cases)) {
    throws(
      () => compileRule({ domain: ["a.test"], [field]: value } as RuleInput),
      (e) =>
        e instanceof UnsupportedError && e.message === `route rule condition "${field}" is not supported yet`,
      field,
    );
  }
  // Unset or empty values are not conditions (sing-box checks len > 0).
  equal(
    compileRule({ process_name: [], network_is_expensive: false, domain: ["a.test"] } as RuleInput)
      .conditionCount,
    1,
  );
  throws(
    () => compileRule({ process_name: ["x"] } as RuleInput, { label: "DNS rule" }),
    /^UnsupportedError: DNS rule/,
  );
});

Deno.test("a lone string where a list is expected still works", () => {
  ok(matches({ domain: "a.test" } as unknown as RuleInput)(to("a.test")));
  throws(() => compileRule({ inbound: [1] } as unknown as RuleInput), ConfigError);
});
