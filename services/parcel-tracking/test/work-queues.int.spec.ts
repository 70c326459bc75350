import { documentsExamined } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { numbers, useTrackingSuite } from './tracking-suite.js';
import { pollWorker, registerWorker, stopWorker } from './workers.js';

const suite = useTrackingSuite();
const { newTenant, create, rows } = suite;

const MINUTE = 60_000;
const ROWS = 300;

const examined = () => documentsExamined(suite.h.connection.db!);

async function examinedBy(pass: () => Promise<number>) {
  const before = await examined();
  const done = await pass();
  return { done, examined: (await examined()) - before };
}

describe('the workers’ queues (ADR 0727, 0730)', () => {
  it('a registration, polling and stopping pass each read a row about once, however many are queued', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await suite.pendingRows(tenant, id, numbers('QUEUE', ROWS));
    // The dashboard's last event of an instance none of whose rows has one yet: a bounded read,
    // not every row checked to find none.
    const lastEvent = await examinedBy(async () =>
      (await suite.h.stores.trackings.lastEventAt(tenant, id)) === null ? 1 : 0,
    );
    expect(lastEvent).toEqual({ done: 1, examined: 0 });
    const now = new Date();
    const clock = { now };
    const options = { owner: 'queue-test', leaseMs: MINUTE, now: () => clock.now };

    // Each row: read as a candidate, leased, read back leased, and its result written; the
    // instance is re-read per batch of 40. Walking the queue from its start for every row claimed
    // read over ROWS² / 2 documents (51,130 here).
    const registration = await examinedBy(() => registerWorker(suite.h, options).runOnce());
    expect(registration.done).toBe(ROWS);
    expect(registration.examined).toBeLessThanOrEqual(5 * ROWS);

    clock.now = new Date(now.getTime() + 2 * MINUTE);
    const polling = await examinedBy(() =>
      pollWorker(suite.h, { ...options, staleAfterMs: MINUTE }).runOnce(),
    );
    expect(polling.done).toBe(ROWS);
    expect(polling.examined).toBeLessThanOrEqual(5 * ROWS);

    // Passes with nothing due read no row, however many the instance has (ADR 0730): every row
    // was just polled, and none is delivered. Only the instances are read. Walking the queues
    // read every row of the instance on every tick (ROWS each; 100,000 rows: 0.6 s of CPU per
    // 5-second tick).
    const idlePolling = await examinedBy(() =>
      pollWorker(suite.h, { ...options, staleAfterMs: MINUTE }).runOnce(),
    );
    expect(idlePolling.done).toBe(0);
    expect(idlePolling.examined).toBeLessThanOrEqual(10);
    const stopping = await examinedBy(() =>
      stopWorker(suite.h, { ...options, stopDeliveredAfterMs: MINUTE }).runOnce(),
    );
    expect(stopping.done).toBe(0);
    expect(stopping.examined).toBeLessThanOrEqual(10);

    const all = await rows(tenant, id);
    expect(all.every((row) => row.registered_at !== null && row.last_polled_at !== null)).toBe(
      true,
    );
  });

  it('two claims of one owner at the same instant never take the same row', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await suite.pendingRows(tenant, id, numbers('SAMEMS', 60));
    // Two passes of one replica starting together: same owner, same clock reading.
    const claim = {
      tenantId: tenant,
      instanceId: id,
      owner: 'one-replica',
      now: new Date(),
      leaseMs: MINUTE,
      limit: 40,
    };
    const [first, second] = await Promise.all([
      suite.h.stores.trackings.claim('register', claim),
      suite.h.stores.trackings.claim('register', claim),
    ]);
    const taken = [...first, ...second].map((row) => row.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.length).toBeGreaterThanOrEqual(40);
  });
});
