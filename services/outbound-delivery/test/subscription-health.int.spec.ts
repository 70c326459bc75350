import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  pendingDelivery,
  type AttemptRecord,
  type DeliveryDocument,
} from '../src/store/delivery.js';
import { DeliveryRepository } from '../src/store/delivery-repository.js';
import { as, failureOf, subscribe } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-health';
const OTHER = 'tenant-health-other';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('subscription health: success rate, p95 and last failure over 24 h and 7 days', () => {
  const suite = useReceiverSuite({ receiver: false });

  /** A settled delivery with the given attempts, stored as the worker would have left it. */
  function delivery(
    subscriptionId: number,
    createdAt: Date,
    attempts: AttemptRecord[],
    tenantId = TENANT,
  ): DeliveryDocument {
    const id = randomUUID();
    return {
      ...pendingDelivery(
        {
          delivery_id: id,
          tenant_id: tenantId,
          subscription_id: subscriptionId,
          event: 'sales_order.created',
          dedupe_key: id,
          body: '{}',
          occurred_at: createdAt,
        },
        createdAt,
      ),
      status: 'failed',
      attempts,
    };
  }
  const attempt = (
    at: number,
    status: number | null,
    durationMs: number,
    error: string | null = null,
  ): AttemptRecord => ({
    attempted_at: new Date(at),
    response_status: status,
    duration_ms: durationMs,
    error,
    response_body: null,
  });
  const health = (tenant: string, id: number) =>
    as(tenant, () => suite.h.client.call.getSubscriptionHealth({ id }));

  it('counts the attempts of each window from the attempt log, with exact rate, p95 and last failure', async () => {
    const { id } = await subscribe(suite.h, TENANT, 'http://127.0.0.1:9/health');
    const { id: neighbour } = await subscribe(suite.h, TENANT, 'http://127.0.0.1:9/neighbour');
    const now = Date.now();
    const recent = delivery(id, new Date(now - 2 * DAY), [
      attempt(now - 5 * HOUR, 200, 100),
      attempt(now - 4 * HOUR, 200, 300),
      attempt(now - 2 * HOUR, 500, 50),
      attempt(now - 1 * HOUR, null, 10_000, 'timeout'),
    ]);
    const older = delivery(id, new Date(now - 4 * DAY), [
      ...Array.from({ length: 17 }, (_, n) => attempt(now - 3 * DAY, 200, n + 1)),
      attempt(now - 2 * DAY, 503, 5),
    ]);
    const outside = delivery(id, new Date(now - 8 * DAY), [attempt(now - 8 * DAY, 500, 99_999)]);
    const elsewhere = delivery(neighbour, new Date(now - HOUR), [
      attempt(now - 30 * 60_000, 500, 7),
    ]);
    await new DeliveryRepository(suite.h.service.mongo).insertRecorded([
      recent,
      older,
      outside,
      elsewhere,
    ]);

    const result = await health(TENANT, id);
    const lastFailure = {
      attempted_at: new Date(now - HOUR),
      response_status: undefined,
      error: 'timeout',
      delivery_id: recent.delivery_id,
    };
    // 24 h: 2 of 4 succeeded; latencies of the 3 answered attempts 50, 100, 300: rank 3 is 300.
    expect(result.last_24h).toEqual({
      attempts: 4,
      succeeded: 2,
      success_rate: 0.5,
      p95_latency_ms: 300,
      last_failure: lastFailure,
    });
    // 7 days: 19 of 22 succeeded; 21 answered, nearest rank ceil(0.95 × 21) = 20 is 100.
    expect(result.last_7d).toEqual({
      attempts: 22,
      succeeded: 19,
      success_rate: 19 / 22,
      p95_latency_ms: 100,
      last_failure: lastFailure,
    });
  });

  it('gives no rate, no p95 and no failure when a window has no attempt', async () => {
    const { id } = await subscribe(suite.h, TENANT, 'http://127.0.0.1:9/quiet');
    const now = Date.now();
    // Only attempts older than 24 h, and only an unanswered one: no p95 either.
    await new DeliveryRepository(suite.h.service.mongo).insertRecorded([
      delivery(id, new Date(now - 3 * DAY), [attempt(now - 2 * DAY, null, 30_000, 'ECONNREFUSED')]),
    ]);
    const result = await health(TENANT, id);
    expect(result.last_24h).toEqual({
      attempts: 0,
      succeeded: 0,
      success_rate: undefined,
      p95_latency_ms: undefined,
      last_failure: undefined,
    });
    expect(result.last_7d).toMatchObject({
      attempts: 1,
      succeeded: 0,
      success_rate: 0,
      p95_latency_ms: undefined,
      last_failure: { error: 'ECONNREFUSED', response_status: undefined },
    });
  });

  it("is NOT_FOUND for another tenant's subscription and for an unknown id", async () => {
    const { id } = await subscribe(suite.h, TENANT, 'http://127.0.0.1:9/mine');
    expect((await failureOf(health(OTHER, id))).code).toBe(5);
    expect(await failureOf(health(TENANT, 987_654))).toMatchObject({ code: 5 });
  });
});
