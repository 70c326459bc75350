import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface FreezableRelay {
  address: string;
  freeze(): void;
  /** Lets everything through again, as SIGCONT would. */
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of a server (`host:port`) that can be frozen as SIGSTOP would freeze the
 * process: it stops reading both sides, so connections stay open and nothing answers (not even
 * HTTP/2 pings). For servers the test cannot stop (running in the test's process). `TcpProxy`
 * (tcp-proxy.ts) is the finer tool: it holds only what clients send, by content, and can cut.
 */
export async function startFreezableRelay(target: string): Promise<FreezableRelay> {
  const [host, port] = target.split(':');
  const pairs: Array<[Socket, Socket]> = [];
  let frozen = false;
  const server = createServer((inbound) => {
    const outbound = createConnection(Number(port), host!);
    pairs.push([inbound, outbound]);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    if (frozen) inbound.pause();
    else {
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    freeze() {
      frozen = true;
      for (const [inbound, outbound] of pairs) {
        inbound.unpipe();
        outbound.unpipe();
        inbound.pause();
        outbound.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const [inbound, outbound] of pairs) {
        inbound.pipe(outbound);
        outbound.pipe(inbound);
        inbound.resume();
        outbound.resume();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) for (const socket of pair) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
