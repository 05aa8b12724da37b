/**
 * An independent SOCKS5 UDP ASSOCIATE client (RFC 1928 §7, RFC 1929) for tests: written from the
 * RFC, sharing no code with svc's own codec, so a bug there cannot hide itself here.
 */

export interface Dest {
  host: string;
  port: number;
}

export interface Datagram {
  from: Dest;
  payload: Uint8Array;
}

async function readExact(conn: Deno.Conn, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let off = 0;
  while (off < n) {
    const got = await conn.read(out.subarray(off));
    if (got === null) throw new Error(`SOCKS5 server closed after ${off} of ${n} bytes`);
    off += got;
  }
  return out;
}

async function writeAll(conn: Deno.Conn, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await conn.write(data.subarray(off));
}

function v4Bytes(host: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  return m ? m.slice(1).map(Number) : undefined;
}

function v6Bytes(host: string): number[] {
  const [head, tail = ""] = host.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const words = host.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  return words.flatMap((w) => {
    const n = parseInt(w, 16);
    return [n >> 8, n & 0xff];
  });
}

/** ATYP ADDR PORT. */
export function encodeDest(d: Dest): Uint8Array {
  const v4 = v4Bytes(d.host);
  let head: number[];
  if (v4) head = [1, ...v4];
  else if (d.host.includes(":")) head = [4, ...v6Bytes(d.host)];
  else {
    const name = new TextEncoder().encode(d.host);
    head = [3, name.length, ...name];
  }
  return new Uint8Array([...head, d.port >> 8, d.port & 0xff]);
}

/** Parses ATYP ADDR PORT at `off`; returns the address and the offset after it. */
export function decodeDest(b: Uint8Array, off: number): { dest: Dest; next: number } {
  const atyp = b[off];
  let p = off + 1;
  let host: string;
  if (atyp === 1) {
    host = [...b.subarray(p, p + 4)].join(".");
    p += 4;
  } else if (atyp === 4) {
    const words: string[] = [];
    for (let i = 0; i < 16; i += 2) words.push(((b[p + i] << 8) | b[p + i + 1]).toString(16));
    host = words.join(":").replace(/(^|:)0(:0)+(:|$)/, "::");
    p += 16;
  } else if (atyp === 3) {
    host = new TextDecoder().decode(b.subarray(p + 1, p + 1 + b[p]));
    p += 1 + b[p];
  } else {
    throw new Error(`Unknown SOCKS5 address type ${atyp}`);
  }
  return { dest: { host, port: (b[p] << 8) | b[p + 1] }, next: p + 2 };
}

/** Reads a SOCKS5 reply (VER REP RSV ATYP ADDR PORT) from a stream. */
async function readReply(conn: Deno.Conn): Promise<{ rep: number; bound: Dest }> {
  const head = await readExact(conn, 4);
  if (head[0] !== 5) throw new Error(`SOCKS5 reply with version ${head[0]}`);
  let rest: Uint8Array;
  if (head[3] === 1) rest = await readExact(conn, 6);
  else if (head[3] === 4) rest = await readExact(conn, 18);
  else if (head[3] === 3) {
    const len = await readExact(conn, 1);
    rest = new Uint8Array([len[0], ...await readExact(conn, len[0] + 2)]);
  } else throw new Error(`SOCKS5 reply with address type ${head[3]}`);
  const { dest } = decodeDest(new Uint8Array([head[3], ...rest]), 0);
  return { rep: head[1], bound: dest };
}

export class Socks5UdpClient {
  private readonly queue: Datagram[] = [];
  private waiter?: () => void;
  private closed = false;

  private constructor(
    readonly control: Deno.TcpConn,
    readonly socket: Deno.DatagramConn,
    /** Where datagrams go: BND.ADDR:BND.PORT (the proxy's address when BND.ADDR is unspecified). */
    readonly relay: Dest,
  ) {
    this.pump();
  }

  /** Greeting, optional RFC 1929 login, then `05 03 00 01 0.0.0.0:0`; throws on any refusal. */
  static async open(
    proxy: Dest,
    auth?: { username: string; password: string },
  ): Promise<Socks5UdpClient> {
    const control = await Deno.connect({ hostname: proxy.host, port: proxy.port });
    try {
      await writeAll(control, new Uint8Array(auth ? [5, 1, 2] : [5, 1, 0]));
      const choice = await readExact(control, 2);
      if (choice[0] !== 5 || choice[1] !== (auth ? 2 : 0)) {
        throw new Error(`SOCKS5 server chose method ${choice[1]}`);
      }
      if (auth) {
        const u = new TextEncoder().encode(auth.username);
        const p = new TextEncoder().encode(auth.password);
        await writeAll(control, new Uint8Array([1, u.length, ...u, p.length, ...p]));
        const status = await readExact(control, 2);
        if (status[1] !== 0) throw new Error("SOCKS5 login refused");
      }
      await writeAll(control, new Uint8Array([5, 3, 0, 1, 0, 0, 0, 0, 0, 0]));
      const { rep, bound } = await readReply(control);
      if (rep !== 0) throw new Error(`SOCKS5 UDP ASSOCIATE refused with reply ${rep}`);
      const relay = bound.host === "0.0.0.0" || bound.host === "::"
        ? { host: proxy.host, port: bound.port }
        : bound;
      const socket = Deno.listenDatagram({
        transport: "udp",
        hostname: relay.host.includes(":") ? "::1" : "127.0.0.1",
        port: 0,
      });
      return new Socks5UdpClient(control, socket, relay);
    } catch (e) {
      control.close();
      throw e;
    }
  }

  private async pump(): Promise<void> {
    try {
      while (true) {
        const [data] = await this.socket.receive();
        if (data.length < 4 || data[0] !== 0 || data[1] !== 0 || data[2] !== 0) continue;
        const { dest, next } = decodeDest(data, 3);
        this.queue.push({ from: dest, payload: data.slice(next) });
        this.wake();
      }
    } catch {
      this.closed = true;
      this.wake();
    }
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  /** Sends one framed datagram (RSV RSV FRAG=0 DST payload) to the relay. */
  async send(dest: Dest, payload: Uint8Array | string): Promise<void> {
    const data = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
    const frame = new Uint8Array([0, 0, 0, ...encodeDest(dest), ...data]);
    await this.socket.send(frame, { transport: "udp", hostname: this.relay.host, port: this.relay.port });
  }

  /** The next datagram from the relay, or undefined after `timeoutMs`. */
  async receive(timeoutMs = 3000): Promise<Datagram | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      const left = deadline - Date.now();
      if (this.closed || left <= 0) return undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((r) => {
        this.waiter = r;
        timer = setTimeout(r, left);
      });
      clearTimeout(timer);
    }
    return this.queue.shift();
  }

  /** Ends the association from the client side by closing the TCP control connection. */
  closeControl(): void {
    try {
      this.control.close();
    } catch { /* closed */ }
  }

  close(): void {
    this.closeControl();
    try {
      this.socket.close();
    } catch { /* closed */ }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
