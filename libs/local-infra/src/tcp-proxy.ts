import net from 'node:net';

/**
 * A TCP proxy in front of a server (MongoDB, say), for tests of what a client does when the
 * network fails under it: `stall()` holds what clients send (the server never sees it, as with a
 * frozen peer), `cut()` resets every connection, as a killed server does, and `resume()` forwards
 * again, connections made after a cut included.
 */
export interface TcpProxy {
  /** `host:port` to give the client in place of the server's. */
  address: string;
  port: number;
  /** `url` (the server's, a `mongodb://` one say) with this proxy in the server's place. */
  through(url: string): string;
  /**
   * Holds what clients send from now on; with `match`, only on a connection once it has sent a
   * chunk holding that text (what else they send still goes through, in order).
   */
  stall(match?: string): void;
  /** What clients sent since `stall()` that the server has not received. */
  held(): Buffer;
  cut(): void;
  resume(): void;
  close(): Promise<void>;
}

/** Starts a proxy in front of `target`: `host` and `port`, or a URL naming them. */
export async function startTcpProxy(
  target: string | { host: string; port: number },
): Promise<TcpProxy> {
  if (typeof target === 'string') {
    const url = new URL(target);
    return startTcpProxy({ host: url.hostname, port: Number(url.port) });
  }
  const sockets = new Set<net.Socket>();
  // undefined: forwarding; '': every connection holds; text: a connection holds from that text on.
  let stallMatch: string | undefined;
  const holding = new Set<net.Socket>();
  let held: Array<{ chunk: Buffer; to: net.Socket }> = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (stallMatch !== undefined && (stallMatch === '' || chunk.includes(stallMatch)))
        holding.add(client);
      if (holding.has(client)) held.push({ chunk, to: upstream });
      else upstream.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const address = `127.0.0.1:${port}`;
  return {
    address,
    port,
    through(url) {
      const proxied = new URL(url);
      proxied.host = address;
      return proxied.toString();
    },
    held: () => Buffer.concat(held.map(({ chunk }) => chunk)),
    stall(match = '') {
      stallMatch = match;
    },
    cut() {
      held = [];
      holding.clear();
      for (const socket of sockets) socket.resetAndDestroy();
    },
    resume() {
      stallMatch = undefined;
      holding.clear();
      for (const { chunk, to } of held) to.write(chunk);
      held = [];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
