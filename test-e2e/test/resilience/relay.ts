import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of a gRPC server that can be frozen as SIGSTOP would freeze the process:
 * it stops reading both sides, so connections stay open and nothing answers (not even HTTP/2
 * pings). Used where the process cannot be stopped (services running in the test's process).
 */
export async function startFreezableRelay(target: string) {
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
