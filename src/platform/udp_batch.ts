/**
 * A UDP socket that moves many datagrams per call: recvmmsg/sendmmsg on a non-blocking libc socket,
 * with one poll() on a worker thread (a single promise) per batch instead of Deno's one promise per
 * datagram. Written against libc directly because neither Deno nor an npm package offers batched
 * datagram I/O. `openUdpSocket` falls back to Deno.listenDatagram where FFI cannot be had.
 */
import { formatIp, parseIp } from "../common/ip.ts";
import * as L from "./libc.ts";

/** Who sent a datagram; pass it back to `send` to answer. */
export interface UdpPeer {
  readonly hostname: string;
  readonly port: number;
  /** The sockaddr bytes (batched socket only). */
  readonly raw?: Uint8Array;
}

export interface UdpSocket {
  readonly addr: Deno.NetAddr;
  /** "batch" (recvmmsg/sendmmsg) or "deno" (Deno.listenDatagram). */
  readonly kind: "batch" | "deno";
  /**
   * Delivers datagrams until closed. `key` names the sender (cheap to compare); `peer()` inside the
   * callback gives its address. `data` is the caller's to keep.
   */
  run(onDatagram: (data: Uint8Array, key: number | string) => void): Promise<void>;
  /** The sender of the datagram being delivered (only inside run's callback). */
  peer(): UdpPeer;
  /** Queues a datagram; batched sends go out at the end of the batch (UDP: may be dropped). */
  send(data: Uint8Array, to: UdpPeer): void;
  close(): Promise<void>;
}

/** A batched socket where libc and FFI are available, else one on Deno.listenDatagram. */
export function openUdpSocket(hostname: string, port: number, options: { batch?: boolean } = {}): UdpSocket {
  const c = options.batch === false ? undefined : L.libc();
  const ip = c ? parseIp(hostname) : undefined;
  if (c && ip) return new BatchUdpSocket(c, ip.version === 6, hostname, port);
  return new DenoUdpSocket(hostname, port);
}

const SLOTS = 32;
const SLOT_SIZE = 65536; // the largest UDP payload fits: nothing is truncated
const NAME = 32; // >= sizeof(sockaddr_in6)
const HDR = 64; // sizeof(struct mmsghdr) on LP64 Linux
const SEND_ARENA = 256 * 1024;
const FATAL = new Set([9, 14, 22, 88]); // EBADF, EFAULT, EINVAL, ENOTSOCK

const addrOf = (b: Uint8Array) => BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(b)));

/** An mmsghdr array whose i-th message has one iovec and a name slot. */
class Headers {
  readonly hdrs = new Uint8Array(SLOTS * HDR);
  readonly names = new Uint8Array(SLOTS * NAME);
  readonly iovs = new Uint8Array(SLOTS * 16);
  readonly hv = new DataView(this.hdrs.buffer);
  readonly iv = new DataView(this.iovs.buffer);
  readonly namesAt = addrOf(this.names);

  constructor() {
    const iovsAt = addrOf(this.iovs);
    for (let i = 0; i < SLOTS; i++) {
      this.hv.setBigUint64(i * HDR, this.namesAt + BigInt(i * NAME), true); // msg_name
      this.hv.setUint32(i * HDR + 8, NAME, true); // msg_namelen
      this.hv.setBigUint64(i * HDR + 16, iovsAt + BigInt(i * 16), true); // msg_iov
      this.hv.setBigUint64(i * HDR + 24, 1n, true); // msg_iovlen
    }
  }

  setIov(i: number, at: bigint, len: number): void {
    this.iv.setBigUint64(i * 16, at, true);
    this.iv.setBigUint64(i * 16 + 8, BigInt(len), true);
  }
}

class BatchUdpSocket implements UdpSocket {
  readonly kind = "batch";
  readonly addr: Deno.NetAddr;
  readonly #c: L.Libc;
  readonly #fd: number;
  readonly #wake: number;
  readonly #pollfds = new Uint8Array(new ArrayBuffer(16)); // off the V8 heap: a worker reads it
  readonly #rx = new Headers();
  readonly #rxData = new Uint8Array(SLOTS * SLOT_SIZE);
  readonly #tx = new Headers();
  readonly #arena = new Uint8Array(SEND_ARENA);
  readonly #arenaAt = addrOf(this.#arena);
  #txCount = 0;
  #txUsed = 0;
  #flushQueued = false;
  #slot = 0;
  #closed = false;
  #loop?: Promise<void>;

  constructor(c: L.Libc, v6: boolean, hostname: string, port: number) {
    this.#c = c;
    const fd = c.socket(v6 ? L.AF_INET6 : L.AF_INET, L.SOCK_DGRAM | L.SOCK_NONBLOCK | L.SOCK_CLOEXEC, 0);
    if (fd < 0) throw new Deno.errors.PermissionDenied(`UDP socket: errno ${L.errno(c)}`);
    const sa = sockaddr(hostname, port);
    if (c.bind(fd, sa, sa.length) !== 0) {
      const e = L.errno(c);
      c.close(fd);
      const msg = `UDP bind ${hostname}:${port}: errno ${e}`;
      throw e === 98 ? new Deno.errors.AddrInUse(msg) : new Deno.errors.ConnectionRefused(msg);
    }
    const got = new Uint8Array(NAME);
    c.getsockname(fd, got, Uint32Array.of(NAME));
    this.addr = { transport: "udp", hostname, port: (got[2] << 8) | got[3] };
    this.#fd = fd;
    this.#wake = c.eventfd(0, L.EFD_NONBLOCK | L.EFD_CLOEXEC);
    const pv = new DataView(this.#pollfds.buffer);
    pv.setInt32(0, fd, true), pv.setInt16(4, L.POLLIN, true);
    pv.setInt32(8, this.#wake, true), pv.setInt16(12, L.POLLIN, true);
    const dataAt = addrOf(this.#rxData);
    for (let i = 0; i < SLOTS; i++) this.#rx.setIov(i, dataAt + BigInt(i * SLOT_SIZE), SLOT_SIZE);
  }

  run(onDatagram: (data: Uint8Array, key: number | string) => void): Promise<void> {
    return this.#loop ??= this.#run(onDatagram);
  }

  async #run(onDatagram: (data: Uint8Array, key: number | string) => void): Promise<void> {
    const { hv } = this.#rx;
    const names = this.#rx.names;
    let waiting: Promise<number> | undefined;
    while (!this.#closed) {
      // Drain a few batches, then go back through poll(), which also yields to the event loop. The
      // poll is armed as soon as the socket looks drained, before the batch is answered, so the
      // worker-thread round trip overlaps with the work instead of adding to each batch's latency.
      for (let round = 0; round < 4 && !this.#closed; round++) {
        const n = this.#c.recvmmsg(this.#fd, this.#rx.hdrs, SLOTS, L.MSG_DONTWAIT, null);
        if (n < 0) {
          const e = L.errno(this.#c);
          if (FATAL.has(e)) throw new Error(`UDP receive: errno ${e}`);
          break; // EAGAIN: nothing more for now
        }
        if (n < SLOTS) waiting ??= this.#c.poll(this.#pollfds, 2n, 1000);
        for (let i = 0; i < n; i++) {
          const len = hv.getUint32(i * HDR + 56, true);
          hv.setUint32(i * HDR + 8, NAME, true); // the kernel wrote the name length back
          this.#slot = i;
          const data = this.#rxData.slice(i * SLOT_SIZE, i * SLOT_SIZE + len);
          try {
            onDatagram(data, keyOf(names, i * NAME));
          } catch { /* one datagram's trouble is its own */ }
        }
        this.#flush();
        if (n < SLOTS) break;
      }
      if (this.#closed) break;
      await (waiting ?? this.#c.poll(this.#pollfds, 2n, 1000));
      waiting = undefined;
    }
    await waiting; // the worker must be done with the poll before the descriptors close
  }

  peer(): UdpPeer {
    const at = this.#slot * NAME;
    const raw = this.#rx.names.slice(at, at + NAME);
    return { ...peerOf(raw), raw };
  }

  send(data: Uint8Array, to: UdpPeer): void {
    if (this.#closed || data.length > SLOT_SIZE) return;
    if (this.#txCount === SLOTS || this.#txUsed + data.length > SEND_ARENA) this.#flush();
    const i = this.#txCount++;
    this.#arena.set(data, this.#txUsed);
    this.#tx.setIov(i, this.#arenaAt + BigInt(this.#txUsed), data.length);
    this.#txUsed += data.length;
    const raw = to.raw ?? sockaddr(to.hostname, to.port);
    this.#tx.names.set(raw.subarray(0, NAME), i * NAME);
    this.#tx.hv.setUint32(i * HDR + 8, raw[0] === L.AF_INET6 ? 28 : 16, true);
    if (!this.#flushQueued) {
      // Sends made from promise callbacks go out together once the current job is done.
      this.#flushQueued = true;
      queueMicrotask(() => this.#flush());
    }
  }

  #flush(): void {
    this.#flushQueued = false;
    let off = 0;
    while (off < this.#txCount && !this.#closed) {
      const hdrs = off === 0 ? this.#tx.hdrs : this.#tx.hdrs.subarray(off * HDR);
      const sent = this.#c.sendmmsg(this.#fd, hdrs, this.#txCount - off, L.MSG_DONTWAIT);
      off += sent > 0 ? sent : 1; // a datagram the kernel refused is dropped, as UDP may
    }
    this.#txCount = 0;
    this.#txUsed = 0;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#flush();
    this.#closed = true;
    this.#c.write(this.#wake, new BigUint64Array([1n]), 8n); // wakes the poll() in flight
    await this.#loop?.catch(() => {});
    this.#c.close(this.#fd);
    this.#c.close(this.#wake);
  }
}

/** A number for IPv4 senders (no string built per datagram), a string for IPv6 ones. */
function keyOf(names: Uint8Array, at: number): number | string {
  const port = (names[at + 2] << 8) | names[at + 3];
  if (names[at] === L.AF_INET) {
    const ip = ((names[at + 4] << 24) | (names[at + 5] << 16) | (names[at + 6] << 8) | names[at + 7]) >>> 0;
    return ip * 65536 + port;
  }
  let s = "";
  for (let k = at + 8; k < at + 24; k++) s += String.fromCharCode(names[k]);
  return s + port;
}

function peerOf(raw: Uint8Array): { hostname: string; port: number } {
  const port = (raw[2] << 8) | raw[3];
  const v = new DataView(raw.buffer, raw.byteOffset);
  if (raw[0] === L.AF_INET) return { hostname: `${raw[4]}.${raw[5]}.${raw[6]}.${raw[7]}`, port };
  const words = Uint32Array.of(v.getUint32(8), v.getUint32(12), v.getUint32(16), v.getUint32(20));
  return { hostname: formatIp({ version: 6, words }), port };
}

/** sockaddr_in / sockaddr_in6 for an IP literal. */
export function sockaddr(hostname: string, port: number): Uint8Array {
  const ip = parseIp(hostname);
  if (!ip) throw new TypeError(`Not an IP address: "${hostname}"`);
  const b = new Uint8Array(ip.version === 4 ? 16 : 28);
  const v = new DataView(b.buffer);
  v.setUint16(0, ip.version === 4 ? L.AF_INET : L.AF_INET6, true);
  v.setUint16(2, port);
  if (ip.version === 4) v.setUint32(4, ip.words[0]);
  else for (let k = 0; k < 4; k++) v.setUint32(8 + 4 * k, ip.words[k]);
  return b;
}

class DenoUdpSocket implements UdpSocket {
  readonly kind = "deno";
  readonly #socket: Deno.DatagramConn;
  #current: Deno.NetAddr = { transport: "udp", hostname: "", port: 0 };
  #closed = false;
  #loop?: Promise<void>;

  constructor(hostname: string, port: number) {
    this.#socket = Deno.listenDatagram({ transport: "udp", hostname, port });
  }

  get addr(): Deno.NetAddr {
    return this.#socket.addr as Deno.NetAddr;
  }

  run(onDatagram: (data: Uint8Array, key: number | string) => void): Promise<void> {
    return this.#loop ??= (async () => {
      while (!this.#closed) {
        let got;
        try {
          got = await this.#socket.receive();
        } catch (e) {
          if (this.#closed) return;
          throw e;
        }
        const a = this.#current = got[1] as Deno.NetAddr;
        try {
          onDatagram(got[0], `${a.hostname}|${a.port}`);
        } catch { /* one datagram's trouble is its own */ }
      }
    })();
  }

  peer(): UdpPeer {
    return { hostname: this.#current.hostname, port: this.#current.port };
  }

  send(data: Uint8Array, to: UdpPeer): void {
    if (this.#closed) return;
    this.#socket.send(data, { transport: "udp", hostname: to.hostname, port: to.port }).catch(() => {});
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#socket.close();
    } catch { /* closed */ }
    await this.#loop?.catch(() => {});
  }
}
