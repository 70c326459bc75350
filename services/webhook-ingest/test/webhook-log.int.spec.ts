import { describeCallError } from '@inventory/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, connect, finished, ingest } from './harness.js';
import { useIngestSuite } from './ingest-suite.js';
import { SIM_KEY } from './provider-pushes.js';

const TENANT = 'tenant-log';
const INSTANCE = 43;
const MOVED = '1Z999AA10000000002';

/** ListWebhookEvents over rows this file stores itself: processed, a duplicate, a forgery. */
describe('webhook-ingest: the webhook log (fake parcel-tracking)', () => {
  const suite = useIngestSuite();
  const storedIds: number[] = [];

  const list = (request: Record<string, unknown>, tenantId = TENANT) =>
    as(tenantId, () =>
      suite.client.call.listWebhookEvents({
        integration_instance_id: INSTANCE,
        event_types: [],
        results: [],
        tracking_number: '',
        tracking_number_exact: false,
        sort: [],
        history_instance_ids: [],
        ...request,
      }),
    );

  beforeAll(async () => {
    const token = await connect(suite.client, suite.h.fake, TENANT, INSTANCE, SIM_KEY);
    const other = await connect(suite.client, suite.h.fake, TENANT, INSTANCE + 1, SIM_KEY);
    const store = async (instanceToken: string, body: string, sign: string) => {
      const { webhook_event_id } = await ingest(suite.client, instanceToken, body, sign);
      await finished(suite.service, webhook_event_id);
      if (instanceToken === token) storedIds.push(webhook_event_id);
    };
    // One shipment's push, the provider's retry of it (a duplicate) and its next change.
    const moved = await suite.pushes.signed(MOVED);
    await store(token, moved.body, moved.sign);
    await store(token, moved.body, moved.sign);
    suite.pushes.advance(MOVED);
    const next = await suite.pushes.push(MOVED);
    await store(token, next.body, next.sign);
    const forged = await suite.pushes.signed('1Z999AA10000000040');
    await store(token, forged.body, '0'.repeat(64));
    // Another instance's row, which no list of INSTANCE shows.
    const elsewhere = await suite.pushes.signed('1Z999AA10000000041');
    await store(other, elsewhere.body, elsewhere.sign);
  });

  it("lists the instance's finished rows, newest first", async () => {
    const all = await list({ page: { page: 1, per_page: 1000 } });
    expect(all.page_info!.total).toBe(storedIds.length);
    expect(all.events.map((event) => event.id)).toEqual([...storedIds].sort((a, b) => b - a));
    const oldestFirst = await list({ sort: [{ field: 'received_at', descending: false }] });
    expect(oldestFirst.events.map((event) => event.id)).toEqual(storedIds);
  });

  it('lists the rows of history instances too when asked (ADR 0215)', async () => {
    const withHistory = await list({
      integration_instance_id: INSTANCE + 1,
      history_instance_ids: [INSTANCE],
    });
    expect(withHistory.page_info!.total).toBe(storedIds.length + 1);
    expect(new Set(withHistory.events.map((event) => event.integration_instance_id))).toEqual(
      new Set([INSTANCE, INSTANCE + 1]),
    );
    expect((await list({ integration_instance_id: INSTANCE + 1 })).page_info!.total).toBe(1);
  });

  it('filters by result and by a case-insensitive substring of the number, taken literally', async () => {
    const failed = await list({ results: ['failed'] });
    expect(failed.events.map((event) => [event.tracking_number, event.result])).toEqual([
      ['1Z999AA10000000040', 'failed'],
    ]);
    // The original, its retry and the next change of one shipment.
    const byNumber = await list({ tracking_number: 'aa10000000002' });
    expect(byNumber.events.map((event) => event.tracking_number)).toEqual([MOVED, MOVED, MOVED]);
    expect(byNumber.events.map((event) => event.result).sort()).toEqual([
      'ignored',
      'processed',
      'processed',
    ]);
    expect(await list({ tracking_number: '.*' })).toMatchObject({ events: [] });
  });

  it("matches the whole number, in any case, with tracking_number_exact (one shipment's webhooks)", async () => {
    const exact = await list({ tracking_number: MOVED.toLowerCase(), tracking_number_exact: true });
    expect(exact.events.map((event) => event.tracking_number)).toEqual([MOVED, MOVED, MOVED]);
    const part = await list({ tracking_number: 'aa10000000002', tracking_number_exact: true });
    expect(part.events).toEqual([]);
  });

  it("shows another tenant nothing, and refuses an unknown result by the filter's field", async () => {
    expect((await list({}, 'tenant-other')).page_info!.total).toBe(0);
    const bad = await list({ results: ['done'] }).then(
      () => undefined,
      (error: unknown) => describeCallError(error),
    );
    expect(bad?.fieldViolations.map((violation) => violation.field)).toEqual(['filter.result']);
  });
});
