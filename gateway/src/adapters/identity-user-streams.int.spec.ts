import { createServer, type Server, type Socket } from 'node:net';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityAdapter } from './identity.js';
import { IdentityUserStreams } from './identity-user-streams.js';

/** A peer that accepts connections and never answers: a hung identity, as the network sees it. */
async function startBlackHole() {
  const sockets: Socket[] = [];
  const chunks: Buffer[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as { port: number }).port,
    sockets,
    /** Everything clients sent, as text. */
    received: () => Buffer.concat(chunks).toString('latin1'),
  };
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
  let identity: ReturnType<typeof createIdentityAdapter>;
  let streams: IdentityUserStreams;

  beforeAll(async () => {
    hole = await startBlackHole();
    identity = createIdentityAdapter(`127.0.0.1:${hole.port}`, { deadlineMs: DEADLINE_MS });
    streams = new IdentityUserStreams(identity, {
      deadlineMs: DEADLINE_MS,
      breaker: { volumeThreshold: 3, resetTimeoutMs: 60_000 },
    });
  });
  afterAll(async () => {
    streams.close();
    identity.close();
    for (const socket of hole.sockets) socket.destroy();
    await new Promise((resolve) => hole.server.close(resolve));
  });

  it('fails look-ups at once once identity leaves its pings unanswered, until the breaker opens', async () => {
    // The adapter's watch (ADR 0744) pings identity; the black hole never answers.
    await waitFor(() => identity.handle.peer!.stalled(), 'identity judged not answering');
    for (let i = 0; i < 3; i++) {
      const error = await failureOf(streams.lookUp('tenant-1', [1]));
      expect(error).toMatchObject({
        code: GrpcStatus.UNAVAILABLE,
        reason: 'identity_unavailable',
      });
    }
    // No look-up was written to the hung peer: each failed before it was sent.
    expect(hole.received()).not.toContain('StreamUsers');
    expect(streams.breaker.opened).toBe(true);

    const error = await failureOf(streams.lookUp('tenant-1', [1]));
    expect(error).toMatchObject({ code: GrpcStatus.UNAVAILABLE, reason: 'circuit_open' });
  });
});
