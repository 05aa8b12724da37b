/** The embedded default configuration: a local mixed proxy that connects directly. */
export const DEFAULT_CONFIG_TEXT = `{
  "log": { "level": "info" },
  "inbounds": [
    { "type": "mixed", "tag": "mixed-in", "listen": "127.0.0.1", "listen_port": 2080 }
  ],
  "outbounds": [
    { "type": "direct", "tag": "direct" }
  ]
}
`;
