import { status as GrpcStatus } from '@grpc/grpc-js';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCallError } from '../src/index.js';
import { startEchoOverProxiedStore, type EchoOverProxiedStore } from './echo-over-proxied-store.js';

/**
 * A handler whose MongoDB goes away mid-command (killed, restarting: the connection is reset)
 * answers UNAVAILABLE, which callers treat as "retry later" (the gateway: a JSON 503; a
 * provider: push again), not INTERNAL, which the gateway answers 500.
 */
describe('a handler whose MongoDB is unreachable', () => {
  let service: EchoOverProxiedStore;

  beforeAll(async () => {
    service = await startEchoOverProxiedStore({ dbName: 'unreachable', deadlineMs: 20_000 });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers UNAVAILABLE when the connection is reset mid-command, then serves again', async () => {
    const { proxy, send } = service;
    expect((await send('before')).text).toBe('before');

    proxy.stall();
    const during = send('during').catch((error: unknown) => error);
    await waitFor(() => proxy.held().includes('during'), 'the insert sent to MongoDB');
    proxy.cut();
    proxy.resume();
    const decoded = describeCallError(await during);
    expect(decoded.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(decoded.reason).toBe('service_unavailable');
    expect(decoded.message).toBe('A data store is unreachable; try again shortly.');

    expect((await send('after')).text).toBe('after');
  }, 60_000);
});
