import { status as GrpcStatus } from '@grpc/grpc-js';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCallError } from '../src/index.js';
import { startEchoOverProxiedStore, type EchoOverProxiedStore } from './echo-over-proxied-store.js';

/**
 * ADR 0743: a frozen MongoDB (SIGSTOP: the socket stays open, nothing answers) held every call
 * that reached it until the caller's deadline. With the store watch, a call in flight when the
 * store stalls, and every call after it until the store answers again, is answered UNAVAILABLE
 * at once. The calls here have a 120 s deadline, longer than the test's timeout: only the watch
 * can answer them in time.
 */
describe('a service whose MongoDB stalls', () => {
  let service: EchoOverProxiedStore;

  beforeAll(async () => {
    service = await startEchoOverProxiedStore({
      dbName: 'stall',
      deadlineMs: 120_000,
      watch: { stallMs: 300, pingEveryMs: 50 },
    });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers the call in flight and the next ones UNAVAILABLE, then serves again by itself', async () => {
    const { proxy, send, handled, abortedAfterWrite } = service;
    const watch = service.watch!;
    expect((await send('before')).text).toBe('before');

    proxy.stall();
    const during = describeCallError(await send('during').catch((error: unknown) => error));
    expect(watch.stalled()).toBe(true);
    expect(during.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(during.reason).toBe('service_unavailable');
    expect(during.message).toBe("The service's database is not answering; retry later.");

    // Refused before its handler runs: nothing more is queued behind the stalled store.
    const next = describeCallError(await send('next').catch((error: unknown) => error));
    expect(next.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(handled).not.toContain('next');

    proxy.resume();
    // The insert of the call answered UNAVAILABLE lands after the thaw; its handler can tell
    // that its caller was already answered (what webhook-ingest marks such a row by).
    await waitFor(() => abortedAfterWrite.has('during'), 'the held insert landed');
    expect(abortedAfterWrite.get('during')).toBe(true);
    await waitFor(() => !watch.stalled(), 'the store answers again');
    expect((await send('after')).text).toBe('after');
    expect(abortedAfterWrite.get('after')).toBe(false);
  }, 60_000);
});
