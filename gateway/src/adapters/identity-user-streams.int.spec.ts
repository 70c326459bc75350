import { createServer, type Server, type Socket } from 'node:net';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityAdapter } from './identity.js';
import { IdentityUserStreams } from './identity-user-streams.js';

/** A peer that accepts connections and never answers: a hung identity, as the network sees it. */
async function startBlackHole(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

const DEADLINE_MS = 400;

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the look-up to fail');
    },
    (error: { code?: number; reason?: string }) => error,
  );

describe('IdentityUserStreams against a hung identity', () => {
  let hole: Awaited<ReturnType<typeof startBlackHole>>;
  let streams: IdentityUserStreams;

  beforeAll(async () => {
    hole = await startBlackHole();
    const identity = createIdentityAdapter(`127.0.0.1:${hole.port}`, {
      deadlineMs: DEADLINE_MS,
    });
    streams = new IdentityUserStreams(identity, {
      deadlineMs: DEADLINE_MS,
      breaker: { volumeThreshold: 3, resetTimeoutMs: 60_000 },
    });
  });
  afterAll(async () => {
    streams.close();
    for (const socket of hole.sockets) socket.destroy();
    await new Promise((resolve) => hole.server.close(resolve));
  });

  it('waits out the deadline only until the breaker opens, then fails at once with circuit_open', async () => {
    for (let i = 0; i < 3; i++) {
      const startedAt = Date.now();
      const error = await failureOf(streams.lookUp('tenant-1', [1]));
      expect(error).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
    }
    expect(streams.breaker.opened).toBe(true);

    // circuit_open is the open breaker's own refusal: a look-up sent to the hung identity can
    // only end DEADLINE_EXCEEDED, after the deadline, as the three above did.
    const error = await failureOf(streams.lookUp('tenant-1', [1]));
    expect(error).toMatchObject({ code: GrpcStatus.UNAVAILABLE, reason: 'circuit_open' });
  });
});
