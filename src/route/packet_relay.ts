/** Relays datagrams both ways between a client session and an outbound until idle or closed. */
import type { Address, Metadata, Packet, PacketConn } from "../adapter/mod.ts";

export async function relayPackets(
  client: PacketConn,
  remote: PacketConn,
  queued: Packet[],
  counters: { up: number; down: number },
  idleMs: number,
  metadata: Metadata,
): Promise<void> {
  let last = Date.now();
  const rewrite = (addr: Address): Address => {
    // Packets to the original destination follow an override (route-options, sniff).
    const o = metadata.originalDestination;
    return o && addr.host === o.host && addr.port === o.port ? metadata.destination : addr;
  };
  for (const p of queued) {
    await remote.writePacket(p.data, rewrite(p.addr));
    counters.up += p.data.length;
  }
  let closed = false;
  const stop = () => {
    if (closed) return;
    closed = true;
    client.close();
    remote.close();
  };
  const timer = setInterval(() => {
    if (Date.now() - last >= idleMs) stop();
  }, Math.min(idleMs, 1000));
  const up = (async () => {
    while (true) {
      const p = await client.readPacket();
      if (!p) break;
      last = Date.now();
      counters.up += p.data.length;
      await remote.writePacket(p.data, rewrite(p.addr)).catch(() => {});
    }
  })();
  const down = (async () => {
    while (true) {
      const p = await remote.readPacket();
      if (!p) break;
      last = Date.now();
      counters.down += p.data.length;
      await client.writePacket(p.data, p.addr).catch(() => {});
    }
  })();
  try {
    await Promise.race([up, down]);
  } finally {
    clearInterval(timer);
    stop();
    await Promise.allSettled([up, down]);
  }
}
