import { ok, throws } from "node:assert/strict";
import { ConfigError } from "../../common/errors.ts";
import { compileRule } from "./compile.ts";
import { meta, to } from "./test_util.ts";

Deno.test("ip_suffix matches the last bits of the address (mihomo IP-SUFFIX)", () => {
  const m = compileRule({ ip_suffix: ["8.8.8.8/24", "::1:2/32"] });
  ok(m.match(to("1.8.8.8")));
  ok(m.match(to("200.8.8.8")));
  ok(!m.match(to("8.8.8.9")));
  ok(!m.match(to("8.8.9.8")));
  ok(m.match(to("2001:db8::1:2")));
  ok(!m.match(to("2001:db8::1:3")));
  ok(!m.match(to("example.com")));
  ok(m.match(to("example.com", 443, { resolvedAddresses: ["9.8.8.8"] })));
  ok(!m.match(to("9.9.9.9", 443, { resolvedAddresses: ["9.8.8.8"] })), "an IP destination is judged alone");
  const all = compileRule({ ip_suffix: ["0.0.0.0/0"] });
  ok(all.match(to("1.2.3.4")));
  ok(!all.match(to("::1")), "families do not mix");
  const exact = compileRule({ ip_suffix: ["10.1.2.3/32"] });
  ok(exact.match(to("10.1.2.3")) && !exact.match(to("11.1.2.3")));
});

Deno.test("source_ip_suffix looks at the source; bad suffixes name their path", () => {
  const m = compileRule({ source_ip_suffix: ["0.0.0.5/8"] });
  ok(m.match(meta({ source: { host: "192.168.1.5", port: 1 } })));
  ok(!m.match(meta({ source: { host: "192.168.1.6", port: 1 } })));
  throws(
    () => compileRule({ ip_suffix: ["1.2.3.4/33"] }),
    (e) => e instanceof ConfigError && e.path === "/ip_suffix/0",
  );
  throws(
    () => compileRule({ ip_suffix: ["1.2.3.4"] }),
    (e) => e instanceof ConfigError && e.path === "/ip_suffix/0",
  );
});
